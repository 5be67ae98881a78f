// A TCP proxy on 127.0.0.1 for fault tests: it forwards every connection to a target (PostgreSQL) until
// it is cut, when it destroys every open connection and refuses new ones, until it is restored.

import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Connections forwarded so far. */
  readonly forwarded: number;
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  urlFor(databaseUrl: string): string;
  /** Destroys every open connection and refuses new ones. */
  cut(): void;
  /** Forwards new connections again. */
  restore(): void;
  close(): Promise<void>;
}

/** Starts a proxy on a free loopback port in front of `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let refusing = false;
  let forwarded = 0;
  const server = createServer((client) => {
    if (refusing) {
      client.destroy();
      return;
    }
    forwarded += 1;
    const upstream = connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      // A cut or a hang-up on either side ends both; errors are the expected way connections die here.
      socket.on('error', () => undefined);
    }
    client.pipe(upstream).on('close', () => client.destroy());
    upstream.pipe(client).on('close', () => upstream.destroy());
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    get forwarded() {
      return forwarded;
    },
    urlFor(databaseUrl) {
      const url = new URL(databaseUrl);
      url.hostname = '127.0.0.1';
      url.port = String(port);
      return url.toString();
    },
    cut() {
      refusing = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      refusing = false;
    },
    async close() {
      refusing = true;
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
