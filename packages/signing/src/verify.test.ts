import { describe, expect, it } from 'vitest';
import { loadSigningVectors, vectorBody } from './fixtures/signing-vectors.js';
import { signCallback } from './sign.js';
import { verifyCallback } from './verify.js';
import type { CallbackVerification, VerifyCallbackInput } from './verify.js';

const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const otherSecret = 'whsec_//79/Pv6+fj39vX08/Lx8O/u7ezr6uno5+bl5OPi4eA=';
const id = 'cb_01JD8Z6Q4M7X2Y3Z4A5B6C7D8E';
const timestamp = 1763740800;
const body = '{"status":{"type":"SUCCESS","code":"0000","message":"Airtime delivered"},"data":{"errors":[]}}';
const signed = signCallback({ secrets: [secret], id, timestamp, body });

/** The spec's header set alone, as a sender without Standard Webhooks headers would send it. */
function specHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !name.startsWith('webhook-')));
}

function verify(overrides: Partial<VerifyCallbackInput> = {}): CallbackVerification {
  return verifyCallback({ secrets: [secret], headers: signed, body, now: timestamp, ...overrides });
}

function expectFailure(result: CallbackVerification, reason: string, message: RegExp): void {
  expect(result).toEqual({ ok: false, reason, message: expect.stringMatching(message) as unknown });
}

describe('verifyCallback with the golden vectors', () => {
  it.each(loadSigningVectors().map((vector) => [vector.name, vector] as const))(
    'accepts "%s" with each of its secrets, by either header set',
    (_name, vector) => {
      for (const vectorSecret of vector.secrets) {
        const input = { secrets: [vectorSecret], body: vectorBody(vector), now: vector.timestamp };
        expect(verifyCallback({ ...input, headers: vector.expected_headers })).toEqual({
          ok: true,
          key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
          id: vector.id,
          timestamp: vector.timestamp,
        });
        expect(verifyCallback({ ...input, headers: specHeaders(vector.expected_headers) })).toEqual({
          ok: true,
          key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
          timestamp: vector.timestamp,
        });
      }
    },
  );
});

describe('verifyCallback', () => {
  it('accepts a signed callback and returns its id and timestamp', () => {
    expect(verify()).toEqual({
      ok: true,
      key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
      id,
      timestamp,
    });
  });

  it('reads headers case-insensitively from a plain object or a Headers object', () => {
    const upper = Object.fromEntries(
      Object.entries(signed).map(([name, value]) => [name.toUpperCase(), value]),
    );
    expect(verify({ headers: upper }).ok).toBe(true);
    expect(verify({ headers: new Headers(signed) }).ok).toBe(true);
  });

  it('verifies the raw bytes given as a Uint8Array', () => {
    expect(verify({ body: new TextEncoder().encode(body) }).ok).toBe(true);
  });

  it('accepts a signature from any of the given secrets', () => {
    expect(verify({ secrets: [otherSecret, secret] }).ok).toBe(true);
  });

  it('accepts a callback signed during a rotation with only the old secret known to the receiver', () => {
    const rotated = signCallback({ secrets: [otherSecret, secret], id, timestamp, body });
    expect(verify({ headers: rotated }).ok).toBe(true);
    expect(verify({ headers: specHeaders(rotated) }).ok).toBe(true);
  });

  it('uses the spec headers when no webhook-signature is sent, without an id', () => {
    expect(verify({ headers: specHeaders(signed) })).toEqual({
      ok: true,
      key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
      timestamp,
    });
  });

  it('accepts the spec headers without Signature-Algorithm', () => {
    const { 'Signature-Algorithm': _algorithm, ...headers } = specHeaders(signed);
    expect(verify({ headers })).toEqual({
      ok: true,
      key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
      timestamp,
    });
  });

  it('prefers the Standard Webhooks headers when both sets are present', () => {
    expect(verify({ headers: { ...signed, 'Signature-Hash': 'not a hash' } })).toEqual({
      ok: true,
      key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
      id,
      timestamp,
    });
    const forged = {
      ...signed,
      'webhook-signature': signCallback({ secrets: [otherSecret], id, timestamp, body })['webhook-signature'],
    };
    expectFailure(verify({ headers: forged }), 'no_match', /webhook-signature/);
  });

  it('skips signature entries of other versions and matches the v1 entry', () => {
    const headers = { ...signed, 'webhook-signature': `v1a,c2lnbmF0dXJl ${signed['webhook-signature']}` };
    expect(verify({ headers }).ok).toBe(true);
  });

  it('accepts signature headers that a proxy repeated and joined with a comma', () => {
    const rotated = signCallback({ secrets: [otherSecret, secret], id, timestamp, body });
    const [first, second] = rotated['webhook-signature'].split(' ');
    expect(verify({ headers: { ...signed, 'webhook-signature': [first!, second!] } }).ok).toBe(true);
    const [hashOne, hashTwo] = rotated['Signature-Hash'].split(' ');
    expect(
      verify({ headers: { ...specHeaders(signed), 'Signature-Hash': `${hashOne!}, ${hashTwo!}` } }).ok,
    ).toBe(true);
  });

  describe('timestamp tolerance', () => {
    it('accepts a timestamp exactly 300 s old or 300 s ahead', () => {
      expect(verify({ now: timestamp + 300 }).ok).toBe(true);
      expect(verify({ now: timestamp - 300 }).ok).toBe(true);
    });

    it('rejects a timestamp 301 s old as too_old', () => {
      expectFailure(
        verify({ now: timestamp + 301 }),
        'too_old',
        /within 300 s .* received 1763740800, 301 s old/,
      );
    });

    it('rejects a timestamp 301 s ahead as too_new', () => {
      expectFailure(
        verify({ now: timestamp - 301 }),
        'too_new',
        /within 300 s .* received 1763740800, 301 s in the future/,
      );
    });

    it('applies the tolerance to the spec headers too', () => {
      expectFailure(verify({ headers: specHeaders(signed), now: timestamp + 301 }), 'too_old', /301 s old/);
    });

    it('honours a custom tolerance', () => {
      expect(verify({ now: timestamp + 10, toleranceSeconds: 10 }).ok).toBe(true);
      expectFailure(verify({ now: timestamp + 11, toleranceSeconds: 10 }), 'too_old', /within 10 s/);
      expect(verify({ toleranceSeconds: 0 }).ok).toBe(true);
    });

    it('defaults now to the system clock', () => {
      const fresh = signCallback({ secrets: [secret], id, timestamp: Math.floor(Date.now() / 1000), body });
      expect(verifyCallback({ secrets: [secret], headers: fresh, body }).ok).toBe(true);
      expectFailure(verifyCallback({ secrets: [secret], headers: signed, body }), 'too_old', /s old/);
    });
  });

  describe('missing headers', () => {
    it('reports missing_header when neither signature header is present', () => {
      expectFailure(
        verify({ headers: { 'content-type': 'application/json' } }),
        'missing_header',
        /webhook-signature .* or a Signature-Hash header, received neither/,
      );
    });

    it('reports missing_header when webhook-id or webhook-timestamp is missing', () => {
      const { 'webhook-id': _id, ...withoutId } = signed;
      expectFailure(verify({ headers: withoutId }), 'missing_header', /received no webhook-id\.$/);
      const { 'webhook-timestamp': _timestamp, ...withoutTimestamp } = signed;
      expectFailure(
        verify({ headers: withoutTimestamp }),
        'missing_header',
        /received no webhook-timestamp\.$/,
      );
    });

    it('reports missing_header when Signature-Timestamp is missing', () => {
      const { 'Signature-Timestamp': _timestamp, ...headers } = specHeaders(signed);
      expectFailure(
        verify({ headers }),
        'missing_header',
        /Expected a Signature-Timestamp header alongside Signature-Hash/,
      );
    });

    it('treats a blank signature header as missing', () => {
      expectFailure(
        verify({ headers: { ...specHeaders(signed), 'Signature-Hash': ' ' } }),
        'missing_header',
        /received neither/,
      );
    });
  });

  describe('malformed headers', () => {
    const hash = signed['Signature-Hash'];

    it.each([
      ['a signature without the v1, prefix', hash, /entries of the form v1,<base64>/],
      ['a v1 signature that is not base64', 'v1,not-base64!!', /base64 HMAC-SHA256/],
      ['a v1 signature of the wrong length', 'v1,AAECAwQ=', /base64 HMAC-SHA256 \(44 characters\)/],
      ['only signatures of other versions', 'v1a,c2lnbmF0dXJl', /at least one v1,<base64> entry/],
      ['an entry with an empty version', `,${hash}`, /entries of the form v1,<base64>/],
    ])('rejects %s in webhook-signature as bad_format', (_name, value, message) => {
      expectFailure(verify({ headers: { ...signed, 'webhook-signature': value } }), 'bad_format', message);
    });

    it.each([
      ['letters', '17637a0800'],
      ['a fraction', '1763740800.5'],
      ['a sign', '-1763740800'],
      ['leading zeros', '01763740800'],
      ['milliseconds beyond 16 digits', '17637408000000000'],
    ])('rejects a webhook-timestamp with %s as bad_format', (_name, value) => {
      expectFailure(
        verify({ headers: { ...signed, 'webhook-timestamp': value } }),
        'bad_format',
        new RegExp(
          `Expected webhook-timestamp to be whole Unix seconds \\(digits only\\), received "${value.replace('.', '\\.')}"`,
        ),
      );
    });

    it('rejects a non-numeric Signature-Timestamp as bad_format', () => {
      expectFailure(
        verify({ headers: { ...specHeaders(signed), 'Signature-Timestamp': 'yesterday' } }),
        'bad_format',
        /Signature-Timestamp .* received "yesterday"/,
      );
    });

    it('rejects a Signature-Hash that is not base64 as bad_format', () => {
      expectFailure(
        verify({ headers: { ...specHeaders(signed), 'Signature-Hash': 'zz%%' } }),
        'bad_format',
        /Signature-Hash .* received "zz%%"/,
      );
    });

    it('rejects a Signature-Algorithm other than HMAC-SHA256 as bad_format', () => {
      expectFailure(
        verify({ headers: { ...specHeaders(signed), 'Signature-Algorithm': 'HMAC-SHA1' } }),
        'bad_format',
        /Expected Signature-Algorithm to be HMAC-SHA256, received "HMAC-SHA1"/,
      );
    });

    it('shortens a long received value in its message', () => {
      const result = verify({ headers: { ...signed, 'webhook-timestamp': '9'.repeat(5000) } });
      expect(result.ok).toBe(false);
      expect(result.ok ? '' : result.message.length).toBeLessThan(200);
    });
  });

  describe('signatures that do not match', () => {
    it('rejects another secret with no_match', () => {
      expectFailure(
        verify({ secrets: [otherSecret] }),
        'no_match',
        /1 webhook-signature value\(s\) .* 1 secret\(s\), received no match/,
      );
    });

    it('rejects a changed body, including the same JSON re-serialised', () => {
      expectFailure(verify({ body: `${body} ` }), 'no_match', /no match/);
      expectFailure(verify({ body: JSON.stringify(JSON.parse(body), null, 2) }), 'no_match', /no match/);
    });

    it('rejects a changed id or timestamp, which are signed too', () => {
      expectFailure(verify({ headers: { ...signed, 'webhook-id': 'cb_other' } }), 'no_match', /no match/);
      expectFailure(
        verify({ headers: { ...signed, 'webhook-timestamp': String(timestamp + 1) } }),
        'no_match',
        /no match/,
      );
      expectFailure(
        verify({ headers: { ...specHeaders(signed), 'Signature-Timestamp': String(timestamp - 1) } }),
        'no_match',
        /Signature-Hash/,
      );
    });
  });

  it('never puts a secret or its key text into a failure message', () => {
    const failures = [
      verify({ secrets: [otherSecret] }),
      verify({ headers: specHeaders(signed), secrets: [otherSecret] }),
      verify({ now: timestamp + 1000 }),
      verify({ headers: { ...signed, 'webhook-signature': 'oops' } }),
      verify({ headers: {} }),
    ];
    for (const result of failures) {
      expect(result.ok).toBe(false);
      for (const text of [secret, otherSecret]) {
        expect(JSON.stringify(result)).not.toContain(text.slice('whsec_'.length, 'whsec_'.length + 12));
      }
    }
  });

  it('throws on configuration errors rather than blaming the request', () => {
    expect(() => verify({ secrets: [] })).toThrow(/at least one secret/);
    expect(() => verify({ secrets: ['not-a-secret'] })).toThrow(/whsec_/);
    expect(() => verify({ toleranceSeconds: -1 })).toThrow(
      'Expected toleranceSeconds to be a non-negative number, received -1.',
    );
    expect(() => verify({ now: Number.NaN })).toThrow(
      'Expected now to be a finite number of Unix seconds, received NaN.',
    );
  });
});
