import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackReceiver } from '../testing/callback-receiver.js';
import type { CallbackReceiver } from '../testing/callback-receiver.js';
import { CallbackHttpClient, RESPONSE_EXCERPT_BYTES } from './post-callback.js';
import type { CallbackPost } from './post-callback.js';

const loopback = [{ address: '127.0.0.1', family: 4 as const }];
let receiver: CallbackReceiver;
const client = new CallbackHttpClient({ maxSocketsPerHost: 4 });

beforeAll(async () => {
  receiver = await startCallbackReceiver();
});

afterAll(async () => {
  client.close();
  await receiver.close();
});

function post(overrides: Partial<CallbackPost> = {}): CallbackPost {
  const body = Buffer.from('{"hello":"world"}');
  return {
    url: new URL(receiver.url),
    addresses: loopback,
    headers: {
      'Content-Type': 'application/json',
      'Content-Length': String(body.byteLength),
      'webhook-id': 'cb_test',
    },
    body,
    timeoutMs: 2_000,
    ...overrides,
  };
}

describe('CallbackHttpClient.post', () => {
  it('posts the exact body and headers and reports the answer', async () => {
    receiver.answerWith(() => ({ status: 202, body: 'accepted' }));
    const before = receiver.received.length;
    const result = await client.post(post());
    expect(result).toMatchObject({ kind: 'answered', status: 202, excerpt: 'accepted' });
    const request = receiver.received[before]!;
    expect(request.body.toString()).toBe('{"hello":"world"}');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-id']).toBe('cb_test');
  });

  it('connects to the checked address, not to what the host name resolves to', async () => {
    receiver.answerWith(() => ({ status: 200 }));
    const url = new URL(receiver.url);
    url.hostname = 'callbacks.invalid';
    const result = await client.post(post({ url }));
    expect(result).toMatchObject({ kind: 'answered', status: 200 });
    expect(receiver.received.at(-1)!.headers.host).toBe(`callbacks.invalid:${receiver.port}`);
  });

  it('does not follow a redirect', async () => {
    receiver.answerWith(() => ({ status: 307, headers: { Location: 'http://127.0.0.1:1/elsewhere' } }));
    const before = receiver.received.length;
    const result = await client.post(post());
    expect(result).toMatchObject({ kind: 'answered', status: 307 });
    expect(receiver.received.length).toBe(before + 1);
  });

  it('reports Retry-After with the answer', async () => {
    receiver.answerWith(() => ({ status: 429, headers: { 'Retry-After': '30' } }));
    expect(await client.post(post())).toMatchObject({ kind: 'answered', status: 429, retryAfter: '30' });
  });

  it('keeps only the first 20 KB of a long answer', async () => {
    receiver.answerWith(() => ({ status: 500, body: 'x'.repeat(RESPONSE_EXCERPT_BYTES + 5_000) }));
    const result = await client.post(post());
    expect(result.kind === 'answered' ? result.excerpt.length : 0).toBe(RESPONSE_EXCERPT_BYTES);
  });

  it('gives up at the deadline when the receiver is slow, and says so', async () => {
    receiver.answerWith(() => ({ status: 200, delayMs: 1_000 }));
    const result = await client.post(post({ timeoutMs: 100 }));
    expect(result.kind).toBe('timeout');
    expect(result.durationMs).toBeGreaterThanOrEqual(90);
    expect(result.durationMs).toBeLessThan(900);
  });

  it('reports a refused connection as a failure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) =>
      closed.close(() => {
        resolve();
      }),
    );
    const result = await client.post(post({ url: new URL(`http://127.0.0.1:${port}/`) }));
    expect(result).toMatchObject({
      kind: 'failed',
      error: expect.stringContaining('ECONNREFUSED') as string,
    });
  });

  it('reuses one kept-alive connection for consecutive callbacks to the same receiver', async () => {
    receiver.answerWith(() => ({ status: 200, body: 'ok' }));
    await client.post(post());
    const connectionsBefore = receiver.connections;
    for (let i = 0; i < 3; i += 1) await client.post(post());
    expect(receiver.connections).toBe(connectionsBefore);
  });
});
