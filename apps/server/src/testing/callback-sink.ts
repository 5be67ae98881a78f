// A callback receiver on 127.0.0.1 for tests, over http or https: answers every callback 200 (or as the test scripts it) and
// keeps what arrived (headers, raw body, arrival time), so a test can check what was delivered, when, and
// with which signature.

import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
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

/** How the sink answers the n-th callback (0-based). */
export type SinkAnswer = (index: number) => { readonly status: number; readonly body: string };

const processed: SinkAnswer = () => ({
  status: 200,
  body: '{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}',
});

/** With `tls`, the sink is an https receiver (live mode calls back over https only). */
export async function startCallbackSink(
  answer: SinkAnswer = processed,
  tls?: { readonly key: string; readonly cert: string },
): Promise<CallbackSink> {
  const arrived: ArrivedCallback[] = [];
  const receive: Parameters<typeof createServer>[1] = (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const index =
        arrived.push({
          headers: request.headers,
          body,
          receivedAt: Date.now(),
          reference: referenceOf(body),
        }) - 1;
      const { status, body: answerBody } = answer(index);
      response.writeHead(status, { 'Content-Type': 'application/json' });
      response.end(answerBody);
    });
  };
  const server = tls === undefined ? createServer(receive) : createTlsServer(tls, receive);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `${tls === undefined ? 'http' : 'https'}://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`,
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
