// A callback receiver on 127.0.0.1 for tests: answers every callback 200 and keeps what arrived (headers,
// raw body, arrival time), so a test can check what was delivered, when, and with which signature.

import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { decodeJsonEnvelope } from '@topup/envelope';

export interface ArrivedCallback {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly receivedAt: number;
  /** `data.transaction.reference` of a JSON callback. */
  readonly reference: string | undefined;
}

export interface CallbackSink {
  readonly url: string;
  readonly arrived: readonly ArrivedCallback[];
  close(): Promise<void>;
}

function referenceOf(body: string): string | undefined {
  try {
    const data = decodeJsonEnvelope(body).data as { transaction?: { reference?: string } };
    return data.transaction?.reference;
  } catch {
    return undefined;
  }
}

export async function startCallbackSink(): Promise<CallbackSink> {
  const arrived: ArrivedCallback[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      arrived.push({ headers: request.headers, body, receivedAt: Date.now(), reference: referenceOf(body) });
      response.writeHead(200, { 'Content-Type': 'application/json' });
      response.end('{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`,
    arrived,
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
