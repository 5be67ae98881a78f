import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { generateSecret } from './secret.js';
import { signCallback } from './sign.js';
import { verifyCallback } from './verify.js';

// The reference library checks timestamps against the real clock, so these callbacks are signed now.
const now = (): number => Math.floor(Date.now() / 1000);
const body = '{"status":{"type":"SUCCESS","code":"0000","message":"Wanjikũ\'s airtime delivered ✓"}}';

function webhookHeaders(headers: ReturnType<typeof signCallback>): Record<string, string> {
  return {
    'webhook-id': headers['webhook-id'],
    'webhook-timestamp': headers['webhook-timestamp'],
    'webhook-signature': headers['webhook-signature'],
  };
}

describe('interoperability with the standardwebhooks reference library', () => {
  it('verifies our webhook-* headers', () => {
    const secret = generateSecret();
    const headers = signCallback({ secrets: [secret], id: 'cb_interop', timestamp: now(), body });
    expect(new Webhook(secret).verify(body, webhookHeaders(headers))).toEqual(JSON.parse(body));
    expect(new Webhook(secret).verify(Buffer.from(body, 'utf8'), headers)).toEqual(JSON.parse(body));
  });

  it('verifies our rotation headers with either the new or the old secret', () => {
    const [newSecret, oldSecret] = [generateSecret(), generateSecret()];
    const headers = signCallback({
      secrets: [newSecret, oldSecret],
      id: 'cb_rotation',
      timestamp: now(),
      body,
    });
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(new Webhook(newSecret).verify(body, webhookHeaders(headers))).toEqual(JSON.parse(body));
    expect(new Webhook(oldSecret).verify(body, webhookHeaders(headers))).toEqual(JSON.parse(body));
    expect(() => new Webhook(generateSecret()).verify(body, webhookHeaders(headers))).toThrow(
      'No matching signature found',
    );
  });

  it('rejects our headers over a tampered body', () => {
    const secret = generateSecret();
    const headers = signCallback({ secrets: [secret], id: 'cb_tampered', timestamp: now(), body });
    expect(() => new Webhook(secret).verify(body.replace('0000', '0001'), webhookHeaders(headers))).toThrow(
      'No matching signature found',
    );
  });

  it('produces the same webhook-signature as the reference library', () => {
    const secret = generateSecret();
    const timestamp = now();
    const theirs = new Webhook(secret).sign('cb_same', new Date(timestamp * 1000), body);
    expect(signCallback({ secrets: [secret], id: 'cb_same', timestamp, body })['webhook-signature']).toBe(
      theirs,
    );
  });

  it('verifies headers signed by the reference library', () => {
    const secret = generateSecret();
    const timestamp = now();
    const headers = {
      'webhook-id': 'msg_from_reference',
      'webhook-timestamp': String(timestamp),
      'webhook-signature': new Webhook(secret).sign('msg_from_reference', new Date(timestamp * 1000), body),
    };
    expect(verifyCallback({ secrets: [secret], headers, body })).toEqual({
      ok: true,
      key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
      id: 'msg_from_reference',
      timestamp,
    });
    expect(verifyCallback({ secrets: [generateSecret()], headers, body })).toMatchObject({
      ok: false,
      reason: 'no_match',
    });
  });
});
