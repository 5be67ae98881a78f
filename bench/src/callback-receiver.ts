// The receiver of the callback case: a keep-alive HTTP server on 127.0.0.1 that answers every callback
// 200 at once and notes when each transaction's callback first arrived.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface BenchCallbackReceiver {
  readonly url: string;
  /** First arrival (epoch ms) of each transaction's callback, by reference. */
  readonly arrivals: ReadonlyMap<string, number>;
  /** Callbacks that arrived for a transaction already seen (at-least-once delivery may repeat). */
  readonly repeats: number;
  /** Forgets every arrival, for the next run. */
  reset(): void;
  /** Resolves true once `count` distinct transactions have arrived, false after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

const answer = '{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}';

function referenceOf(body: string): string | undefined {
  const envelope = JSON.parse(body) as { data?: { transaction?: { reference?: unknown } } };
  const reference = envelope.data?.transaction?.reference;
  return typeof reference === 'string' ? reference : undefined;
}

/** Starts the receiver on a free loopback port. */
export async function startBenchCallbackReceiver(): Promise<BenchCallbackReceiver> {
  const arrivals = new Map<string, number>();
  let repeats = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const arrivedAt = Date.now();
      const reference = referenceOf(Buffer.concat(chunks).toString('utf8'));
      if (reference !== undefined) {
        if (arrivals.has(reference)) repeats += 1;
        else arrivals.set(reference, arrivedAt);
      }
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end(answer);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/callbacks`,
    arrivals,
    get repeats() {
      return repeats;
    },
    reset() {
      arrivals.clear();
      repeats = 0;
    },
    async waitFor(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (arrivals.size < count) {
        if (Date.now() > deadline) return false;
        await sleep(20);
      }
      return true;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
