// A TCP proxy on 127.0.0.1 for fault tests: it forwards every connection to a target (PostgreSQL) until
// it is cut, in one of two ways, until it is restored:
// - 'close': every open connection is destroyed and new ones are refused, as when the database's host
//   goes down and says so;
// - 'black hole': nothing is forwarded either way and nothing is closed; open connections stay open and
//   silent, new ones are accepted and held, as when packets to the database are dropped. Restored, the
//   held bytes are delivered (a healed partition), including any a client sent before it gave up, so a
//   statement sent into the black hole, a COMMIT say, may still run once the database is back.

import { connect, createServer } from 'node:net';
import type { AddressInfo, Socket } from 'node:net';

export type CutMode = 'close' | 'black hole';

export interface TcpProxy {
  readonly port: number;
  /** Connections forwarded so far. */
  readonly forwarded: number;
  /** `databaseUrl` with its host and port replaced by the proxy's. */
  urlFor(databaseUrl: string): string;
  /** Stops forwarding: see the modes above ('close' by default). */
  cut(mode?: CutMode): void;
  /** Forwards again: new connections, and in a black hole the held ones with what they buffered. */
  restore(): void;
  close(): Promise<void>;
}

/** One client's connection and its connection to the target, once made. */
interface Link {
  readonly client: Socket;
  upstream: Socket | undefined;
  held: boolean;
}

/** Starts a proxy on a free loopback port in front of `target`. */
export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const links = new Set<Link>();
  let cut: CutMode | undefined;
  let forwarded = 0;

  const connectUpstream = (link: Link): Socket => {
    const upstream = connect(target.port, target.host);
    link.upstream = upstream;
    forwarded += 1;
    upstream.on('error', () => undefined);
    upstream.on('close', () => {
      if (!link.held) link.client.end();
    });
    return upstream;
  };

  /** Forwards both ways, from the start or again after a black hole. */
  const flow = (link: Link) => {
    link.held = false;
    const upstream = link.upstream ?? connectUpstream(link);
    link.client.pipe(upstream);
    upstream.pipe(link.client);
    // A side that hung up while held hangs up the other now, after what it had sent.
    if (upstream.destroyed) link.client.end();
    if (link.client.destroyed) {
      upstream.end();
      links.delete(link);
    }
  };

  /** Forwards nothing either way, and passes no hang-up: what arrives stays buffered. */
  const hold = (link: Link) => {
    link.held = true;
    link.client.unpipe();
    link.client.pause();
    link.upstream?.unpipe();
    link.upstream?.pause();
  };

  const server = createServer((client) => {
    if (cut === 'close') {
      client.destroy();
      return;
    }
    const link: Link = { client, upstream: undefined, held: false };
    links.add(link);
    // Errors are the expected way connections die here.
    client.on('error', () => undefined);
    client.on('close', () => {
      if (link.held) return;
      link.upstream?.end();
      links.delete(link);
    });
    if (cut === 'black hole') hold(link);
    else flow(link);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;

  const destroyAll = () => {
    for (const link of links) {
      link.held = false;
      link.client.destroy();
      link.upstream?.destroy();
    }
    links.clear();
  };

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
    cut(mode = 'close') {
      cut = mode;
      if (mode === 'close') destroyAll();
      else for (const link of links) hold(link);
    },
    restore() {
      const wasBlackHole = cut === 'black hole';
      cut = undefined;
      if (wasBlackHole) for (const link of links) flow(link);
    },
    async close() {
      cut = 'close';
      destroyAll();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
