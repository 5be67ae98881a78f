// A real HTTP receiver on 127.0.0.1 for tests: records every request with its raw body, answers as the
// test scripts it (status, headers, body, delay), and tracks how many attempts of the same callback
// (`webhook-id`) were open at once, from arrival until the answer is sent or the sender hangs up.

import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

export interface ReceivedCallback {
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
  readonly receivedAt: number;
}

export interface ScriptedAnswer {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  readonly delayMs?: number;
}

/** Decides the answer to the n-th request (0-based) of the receiver. */
export type AnswerScript = (request: ReceivedCallback, index: number) => ScriptedAnswer;

export interface CallbackReceiver {
  readonly url: string;
  readonly port: number;
  readonly received: readonly ReceivedCallback[];
  /** The most attempts of one `webhook-id` that were open at the same time. */
  readonly peakOpenPerCallback: number;
  /** TCP connections accepted so far. */
  readonly connections: number;
  answerWith(script: AnswerScript): void;
  /** Resolves once `count` requests have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<readonly ReceivedCallback[]>;
  close(): Promise<void>;
}

const ok: AnswerScript = () => ({
  status: 200,
  headers: { 'Content-Type': 'application/json' },
  body: '{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}',
});

/** Starts a receiver on 127.0.0.1 and a free port; it answers 200 until told otherwise. */
export async function startCallbackReceiver(port = 0): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const open = new Map<string, number>();
  let peak = 0;
  let script = ok;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    const id = String(request.headers['webhook-id'] ?? '');
    open.set(id, (open.get(id) ?? 0) + 1);
    peak = Math.max(peak, open.get(id) ?? 0);
    let closed = false;
    const close = () => {
      if (closed) return;
      closed = true;
      open.set(id, (open.get(id) ?? 1) - 1);
    };
    response.on('close', close);
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const callback = { headers: request.headers, body: Buffer.concat(chunks), receivedAt: Date.now() };
      const index = received.push(callback) - 1;
      const answer = script(callback, index);
      void sleep(answer.delayMs ?? 0).then(() => {
        if (response.destroyed) return;
        response.writeHead(answer.status, answer.headers);
        response.end(answer.body);
      });
    });
  });
  let connections = 0;
  server.on('connection', () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}/callbacks`,
    port: address.port,
    received,
    get peakOpenPerCallback() {
      return peak;
    },
    get connections() {
      return connections;
    },
    answerWith(next) {
      script = next;
    },
    async waitFor(count, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > until) {
          throw new Error(
            `Expected ${count} callback request(s) within ${timeoutMs} ms, received ${received.length}.`,
          );
        }
        await sleep(10);
      }
      return received;
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
