import { describe, expect, it } from 'vitest';
import { decodeSecret, decodeSecrets, generateSecret } from './secret.js';

describe('generateSecret', () => {
  it('returns whsec_ followed by the padded base64 of 32 bytes', () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(decodeSecret(secret)).toHaveLength(32);
  });

  it('returns a different secret each time', () => {
    const secrets = new Set(Array.from({ length: 50 }, generateSecret));
    expect(secrets.size).toBe(50);
  });
});

describe('decodeSecret', () => {
  it('decodes the bytes after whsec_ as the key', () => {
    const key = decodeSecret('whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=');
    expect([...key]).toEqual(Array.from({ length: 32 }, (_, index) => index));
  });

  it('accepts keys of other lengths, as Standard Webhooks secrets may have', () => {
    expect(decodeSecret('whsec_EBESExQVFhcYGRobHB0eHyAhIiMkJSYn')).toHaveLength(24);
  });

  it.each([
    ['a secret without the whsec_ prefix', 'AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=', /whsec_ prefix/],
    ['a key part with characters outside base64', 'whsec_AAEC!wQF', /not valid base64/],
    ['a key part missing its padding', 'whsec_AAECAwQ', /not valid base64/],
    ['a key part with stray trailing bits', 'whsec_AB==', /not valid base64/],
    ['a key part with whitespace', 'whsec_AAEC AwQF', /not valid base64/],
    ['an empty key', 'whsec_', /non-empty key/],
  ])('rejects %s with a descriptive error', (_name, secret, message) => {
    expect(() => decodeSecret(secret)).toThrow(message);
  });

  it('never echoes the secret in its error', () => {
    const secret = 'whsec_AAEC!wQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
    expect(() => decodeSecret(secret)).toThrow(
      /Expected whsec_ to be followed by padded base64, received a 50-character/,
    );
    try {
      decodeSecret(secret);
    } catch (error) {
      expect(String(error)).not.toContain('AAEC');
    }
  });
});

describe('decodeSecrets', () => {
  it('decodes every secret of a rotation list in order', () => {
    const keys = decodeSecrets([
      'whsec_//79/Pv6+fj39vX08/Lx8O/u7ezr6uno5+bl5OPi4eA=',
      'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=',
    ]);
    expect(keys.map((key) => key[0])).toEqual([255, 0]);
  });

  it('rejects an empty list', () => {
    expect(() => decodeSecrets([])).toThrow('Expected at least one secret, received an empty list.');
  });
});
