import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { exchange } from './http-exchange.js';

const servers: Server[] = [];

async function serve(handler: RequestListener): Promise<{ url: URL; connections: () => number }> {
  let connections = 0;
  const server = createServer(handler);
  server.on('connection', () => {
    connections += 1;
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: new URL(`http://127.0.0.1:${String(port)}/path?q=1`), connections: () => connections };
}

afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('an HTTP exchange', () => {
  it('sends the method, headers and body, and hands back the status and the whole answer', async () => {
    const { url } = await serve((request, response) => {
      let body = '';
      request.setEncoding('utf8');
      request.on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        response.writeHead(202, { 'Content-Type': 'application/json' });
        response.end(
          JSON.stringify({ method: request.method, url: request.url, key: request.headers['apikey'], body }),
        );
      });
    });
    const outcome = await exchange(url, {
      method: 'POST',
      headers: { apiKey: 'k', 'Content-Type': 'application/json' },
      body: '{"amount":"KES 10"}',
      timeoutMs: 2_000,
    });
    expect(outcome).toEqual({
      kind: 'answered',
      status: 202,
      text: JSON.stringify({ method: 'POST', url: '/path?q=1', key: 'k', body: '{"amount":"KES 10"}' }),
    });
  });

  it('keeps its connection open for the next call', async () => {
    const { url, connections } = await serve((_, response) => response.end('ok'));
    for (let call = 0; call < 3; call += 1) {
      await expect(exchange(url, { method: 'GET', headers: {}, timeoutMs: 2_000 })).resolves.toMatchObject({
        kind: 'answered',
      });
    }
    expect(connections()).toBe(1);
  });

  it('waits past the 4 s idle limit for an answer that is slow to come, on a kept-open connection', async () => {
    const { url, connections } = await serve((_, response) => {
      setTimeout(() => response.end('late'), 4_500);
    });
    await expect(exchange(url, { method: 'GET', headers: {}, timeoutMs: 8_000 })).resolves.toEqual({
      kind: 'answered',
      status: 200,
      text: 'late',
    });
    expect(connections()).toBe(1);
  }, 15_000);

  it('gives up on an answer that does not come in time', async () => {
    const { url } = await serve(() => undefined);
    const started = Date.now();
    await expect(exchange(url, { method: 'GET', headers: {}, timeoutMs: 100 })).resolves.toEqual({
      kind: 'timed_out',
    });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('hands back a refused connection with its code', async () => {
    const { url } = await serve(() => undefined);
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const outcome = await exchange(url, { method: 'GET', headers: {}, timeoutMs: 2_000 });
    expect(outcome).toMatchObject({ kind: 'failed', error: { code: 'ECONNREFUSED' } });
  });

  it('counts an answer cut off half way as a failure, not as an answer', async () => {
    const { url } = await serve((request, response) => {
      response.writeHead(200, { 'Content-Length': '100' });
      response.write('partial');
      setTimeout(() => request.socket.destroy(), 20);
    });
    const outcome = await exchange(url, { method: 'GET', headers: {}, timeoutMs: 2_000 });
    expect(outcome.kind).toBe('failed');
  });

  it('hands back a request Node refuses to send as a failure rather than throwing', async () => {
    const { url } = await serve((_, response) => response.end('ok'));
    const outcome = await exchange(url, { method: 'GET', headers: { apiKey: 'a\nb' }, timeoutMs: 2_000 });
    expect(outcome).toMatchObject({ kind: 'failed', error: { code: 'ERR_INVALID_CHAR' } });
  });
});
