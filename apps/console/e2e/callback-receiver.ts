// A callback receiver on 127.0.0.1, registered as the account's callback endpoint: it answers every
// callback 200 and keeps what arrived, so the tests can wait for a delivery and see each attempt the
// service recorded.

import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ArrivedCallback {
  readonly body: string;
  /** `data.transaction.reference` of a JSON callback, or "". */
  readonly reference: string;
}

export interface CallbackReceiver {
  readonly url: string;
  readonly arrived: readonly ArrivedCallback[];
  /** How many callbacks arrived for `reference`. */
  countFor(reference: string): number;
  close(): Promise<void>;
}

function referenceOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { data?: { transaction?: { reference?: unknown } } };
    const reference = parsed.data?.transaction?.reference;
    return typeof reference === 'string' ? reference : '';
  } catch {
    return '';
  }
}

export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const arrived: ArrivedCallback[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      arrived.push({ body, reference: referenceOf(body) });
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`,
    arrived,
    countFor: (reference) => arrived.filter((callback) => callback.reference === reference).length,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
