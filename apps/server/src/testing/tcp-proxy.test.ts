import { once } from 'node:events';
import { connect, createServer } from 'node:net';
import type { AddressInfo, Server, Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startTcpProxy } from './tcp-proxy.js';
import type { TcpProxy } from './tcp-proxy.js';

/** A client of the echo server through the proxy, collecting what comes back. */
async function echoClient(port: number) {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  await once(socket, 'connect');
  return {
    socket,
    received: () => received,
    closed: () => socket.destroyed || socket.readableEnded,
  };
}

describe('the TCP proxy of the fault tests', () => {
  let echo: Server;
  let proxy: TcpProxy;

  beforeEach(async () => {
    echo = createServer((socket: Socket) => socket.pipe(socket));
    await new Promise<void>((resolve) => echo.listen(0, '127.0.0.1', resolve));
    proxy = await startTcpProxy({ host: '127.0.0.1', port: (echo.address() as AddressInfo).port });
  });

  afterEach(async () => {
    await proxy.close();
    await new Promise<void>((resolve) =>
      echo.close(() => {
        resolve();
      }),
    );
  });

  it('closes every connection and refuses new ones when cut, and forwards again once restored', async () => {
    const open = await echoClient(proxy.port);
    open.socket.write('before');
    await expect.poll(open.received).toBe('before');
    proxy.cut();
    await expect.poll(open.closed).toBe(true);
    const refused = await echoClient(proxy.port);
    await expect.poll(refused.closed).toBe(true);
    proxy.restore();
    const again = await echoClient(proxy.port);
    again.socket.write('after');
    await expect.poll(again.received).toBe('after');
    again.socket.destroy();
  });

  it('holds every connection open and silent in a black hole, then delivers what was held', async () => {
    const open = await echoClient(proxy.port);
    open.socket.write('before ');
    await expect.poll(open.received).toBe('before ');
    proxy.cut('black hole');
    open.socket.write('during');
    const fresh = await echoClient(proxy.port);
    fresh.socket.write('new');
    await sleep(300);
    expect([open.received(), open.closed(), fresh.received(), fresh.closed()]).toEqual([
      'before ',
      false,
      '',
      false,
    ]);
    proxy.restore();
    await expect.poll(open.received).toBe('before during');
    await expect.poll(fresh.received).toBe('new');
    open.socket.destroy();
    fresh.socket.destroy();
  });
});
