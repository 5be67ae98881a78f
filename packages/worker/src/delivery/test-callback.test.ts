import { decodeJsonEnvelope, decodeXmlEnvelope } from '@topup/envelope';
import { generateSecret, verifyCallback } from '@topup/signing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackReceiver } from '../testing/callback-receiver.js';
import type { CallbackReceiver } from '../testing/callback-receiver.js';
import { sendTestCallback } from './test-callback.js';
import type { TestCallbackInput } from './test-callback.js';

let receiver: CallbackReceiver;
const current = generateSecret();
const previous = generateSecret();

beforeAll(async () => {
  receiver = await startCallbackReceiver();
});

afterAll(async () => {
  await receiver.close();
});

function input(overrides: Partial<TestCallbackInput> = {}): TestCallbackInput {
  return {
    endpoint: { id: 'ep_test', url: receiver.url, format: 'json' },
    secrets: () => Promise.resolve([current, previous]),
    // The API listens on loopback alone, so a loopback receiver may be reached: as the server's own policy.
    policy: { mode: 'sandbox', allowPrivateNetworks: false, allowLoopback: true },
    timeoutMs: 2_000,
    ...overrides,
  };
}

describe('sendTestCallback', () => {
  it.each(['json', 'xml'] as const)(
    'posts a Test callback in %s, signed with every secret as real callbacks are, under a webhook-id of its own',
    async (format) => {
      receiver.answerWith(() => ({ status: 200, body: 'thanks' }));
      const before = receiver.received.length;
      const result = await sendTestCallback(
        input({ endpoint: { id: 'ep_test', url: receiver.url, format } }),
      );
      const [arrived] = receiver.received.slice(before);
      expect(arrived).toBeDefined();
      const headers = arrived?.headers ?? {};
      const body = arrived?.body ?? Buffer.alloc(0);
      expect(headers['content-type']).toContain(format === 'json' ? 'application/json' : 'xml');
      expect(headers['webhook-id']).toMatch(/^test_[A-Za-z0-9_-]{16}$/);
      for (const secret of [current, previous]) {
        expect(verifyCallback({ secrets: [secret], headers, body }).ok).toBe(true);
      }
      const envelope = (format === 'json' ? decodeJsonEnvelope : decodeXmlEnvelope)(body.toString('utf8'));
      expect(envelope.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Test callback' });
      expect(envelope.data).toEqual({
        errors: [],
        test: { endpoint_id: 'ep_test', sent: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) as string },
      });
      // A loopback receiver is not public: its status shows, never what it answered.
      expect(result).toMatchObject({ outcome: 'delivered', httpStatus: 200, responseExcerpt: '' });
      expect(result.error).toBeUndefined();
    },
  );

  it('reports an answer that is not 2xx as failed, with its status', async () => {
    receiver.answerWith(() => ({ status: 401, body: 'bad signature' }));
    await expect(sendTestCallback(input())).resolves.toMatchObject({
      outcome: 'failed',
      httpStatus: 401,
      responseExcerpt: '',
    });
  });

  it('connects to the address the policy checked, not to what the name resolves to later', async () => {
    receiver.answerWith(() => ({ status: 204 }));
    const url = new URL(receiver.url);
    url.hostname = 'hooks.test-callback.invalid';
    const result = await sendTestCallback(
      input({
        endpoint: { id: 'ep_test', url: url.href, format: 'json' },
        policy: {
          mode: 'sandbox',
          allowPrivateNetworks: false,
          allowLoopback: true,
          resolve: () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]),
        },
      }),
    );
    expect(result).toMatchObject({ outcome: 'delivered', httpStatus: 204 });
    expect(receiver.received.at(-1)?.headers.host).toBe(`hooks.test-callback.invalid:${receiver.port}`);
  });

  it('sends nothing to a URL the policy refuses, and says only that it was refused', async () => {
    const before = receiver.received.length;
    let secretsRead = false;
    const result = await sendTestCallback(
      input({
        policy: { mode: 'sandbox', allowPrivateNetworks: false, allowLoopback: false },
        secrets: () => {
          secretsRead = true;
          return Promise.resolve([current]);
        },
      }),
    );
    expect(result).toMatchObject({
      outcome: 'failed',
      responseExcerpt: '',
      error: 'callback URL refused by the callback URL policy',
    });
    expect(result.httpStatus).toBeUndefined();
    expect(result.refusal).toMatch(/loopback/);
    expect(secretsRead).toBe(false);
    expect(receiver.received.length).toBe(before);
  });

  it('gives up at the deadline; a receiver that is not public reads as connection failed', async () => {
    receiver.answerWith(() => ({ status: 200, delayMs: 1_000 }));
    const result = await sendTestCallback(input({ timeoutMs: 200 }));
    expect(result).toMatchObject({ outcome: 'failed', error: 'connection failed' });
    expect(result.httpStatus).toBeUndefined();
    expect(result.durationMs).toBeGreaterThanOrEqual(150);
    expect(result.durationMs).toBeLessThan(1_000);
  });

  it('lets a failure to read the secrets escape: it is the store’s, not the receiver’s', async () => {
    await expect(
      sendTestCallback(input({ secrets: () => Promise.reject(new Error('store down')) })),
    ).rejects.toThrow('store down');
  });
});
