import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyBytes } from './mac.js';
import { signCallback } from './sign.js';
import type { CallbackSignatureHeaders } from './signature-headers.js';
import { verifyCallback } from './verify.js';

const secretArbitrary = fc
  .uint8Array({ minLength: 16, maxLength: 64 })
  .map((key) => `whsec_${Buffer.from(key).toString('base64')}`);
const bodyArbitrary = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.uint8Array({ maxLength: 400 }),
);
const idArbitrary = fc.stringMatching(/^[\x21-\x7e]{1,40}$/);
const timestampArbitrary = fc.integer({ min: 0, max: 4_102_444_800 });

const callbackArbitrary = fc.record({
  secrets: fc.uniqueArray(secretArbitrary, { minLength: 1, maxLength: 3 }),
  id: idArbitrary,
  timestamp: timestampArbitrary,
  body: bodyArbitrary,
});

/** The spec's header set alone, so both verification paths are exercised. */
function specHeaders(headers: CallbackSignatureHeaders): Record<string, string> {
  return {
    'Signature-Algorithm': headers['Signature-Algorithm'],
    'Signature-Timestamp': headers['Signature-Timestamp'],
    'Signature-Hash': headers['Signature-Hash'],
  };
}

describe('sign then verify', () => {
  it('verifies with any one of the signing secrets, by either header set', () => {
    fc.assert(
      fc.property(callbackArbitrary, fc.nat(), (callback, pick) => {
        const headers = signCallback(callback);
        const secret = callback.secrets[pick % callback.secrets.length]!;
        const input = { secrets: [secret], body: callback.body, now: callback.timestamp };
        expect(verifyCallback({ ...input, headers })).toEqual({
          ok: true,
          key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
          id: callback.id,
          timestamp: callback.timestamp,
        });
        expect(verifyCallback({ ...input, headers: specHeaders(headers) })).toEqual({
          ok: true,
          key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
          timestamp: callback.timestamp,
        });
      }),
    );
  });

  it('fails with no_match when any single byte of the body is flipped', () => {
    const withFlip = callbackArbitrary
      .filter((callback) => bodyBytes(callback.body).length > 0)
      .chain((callback) =>
        fc.record({
          callback: fc.constant(callback),
          index: fc.nat({ max: bodyBytes(callback.body).length - 1 }),
          mask: fc.integer({ min: 1, max: 255 }),
        }),
      );
    fc.assert(
      fc.property(withFlip, ({ callback, index, mask }) => {
        const headers = signCallback(callback);
        const tampered = Uint8Array.from(bodyBytes(callback.body));
        tampered[index]! ^= mask;
        const input = { secrets: callback.secrets, body: tampered, now: callback.timestamp };
        expect(verifyCallback({ ...input, headers })).toMatchObject({ ok: false, reason: 'no_match' });
        expect(verifyCallback({ ...input, headers: specHeaders(headers) })).toMatchObject({
          ok: false,
          reason: 'no_match',
        });
      }),
    );
  });

  it('fails with no_match under a secret that did not sign', () => {
    fc.assert(
      fc.property(callbackArbitrary, secretArbitrary, (callback, otherSecret) => {
        fc.pre(!callback.secrets.includes(otherSecret));
        const headers = signCallback(callback);
        const input = { secrets: [otherSecret], body: callback.body, now: callback.timestamp };
        expect(verifyCallback({ ...input, headers })).toMatchObject({ ok: false, reason: 'no_match' });
        expect(verifyCallback({ ...input, headers: specHeaders(headers) })).toMatchObject({
          ok: false,
          reason: 'no_match',
        });
      }),
    );
  });
});
