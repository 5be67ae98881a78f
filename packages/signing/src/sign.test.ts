import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSigningVectors, vectorBody } from './fixtures/signing-vectors.js';
import { signCallback } from './sign.js';

const vectors = loadSigningVectors();
const sharedVectorsPath = new URL('../../../../shared/vectors/signing.json', import.meta.url);
const oldSecret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
const newSecret = 'whsec_//79/Pv6+fj39vX08/Lx8O/u7ezr6uno5+bl5OPi4eA=';

describe('signCallback golden vectors', () => {
  it.each(vectors.map((vector) => [vector.name, vector] as const))(
    'reproduces the expected headers of "%s" exactly',
    (_name, vector) => {
      const headers = signCallback({
        secrets: vector.secrets,
        id: vector.id,
        timestamp: vector.timestamp,
        body: vectorBody(vector),
      });
      expect(headers).toStrictEqual(vector.expected_headers);
    },
  );

  it('covers shared cases and cases of our own with a bytes body and several secrets', () => {
    expect(vectors.filter((vector) => vector.source === 'shared').length).toBeGreaterThanOrEqual(4);
    expect(vectors.some((vector) => vector.body_base64 !== undefined)).toBe(true);
    expect(vectors.some((vector) => vector.secrets.length === 3)).toBe(true);
  });

  // The shared vectors live outside the repository; when they are present, the fixture must hold every case.
  it.skipIf(!existsSync(sharedVectorsPath))('holds every case of the shared signing vectors verbatim', () => {
    const shared = (JSON.parse(readFileSync(sharedVectorsPath, 'utf8')) as { cases: object[] }).cases;
    const copied = vectors
      .filter((vector) => vector.source === 'shared')
      .map(({ source: _source, ...vector }) => vector);
    expect(copied).toEqual(shared);
  });
});

describe('signCallback', () => {
  const body = '{"status":{"type":"SUCCESS","code":"0000","message":"Agent float deposited"}}';

  it('signs a string body as its UTF-8 bytes', () => {
    const text = '{"name":"Wanjikũ — ✓"}';
    const fromText = signCallback({ secrets: [oldSecret], id: 'cb_1', timestamp: 1763740000, body: text });
    const fromBytes = signCallback({
      secrets: [oldSecret],
      id: 'cb_1',
      timestamp: 1763740000,
      body: new TextEncoder().encode(text),
    });
    expect(fromBytes).toEqual(fromText);
  });

  it('signs only the bytes a Uint8Array view covers, not its whole buffer', () => {
    const padded = Buffer.from(`xxxx${body}yyyy`, 'utf8');
    const view = new Uint8Array(padded.buffer, padded.byteOffset + 4, Buffer.byteLength(body));
    const input = { secrets: [oldSecret], id: 'cb_view', timestamp: 1763740000 };
    expect(signCallback({ ...input, body: view })).toEqual(signCallback({ ...input, body }));
  });

  it('lists one value per secret, space-separated, in the order of the secrets', () => {
    const input = { id: 'cb_rotate', timestamp: 1763741000, body };
    const rotated = signCallback({ ...input, secrets: [newSecret, oldSecret] });
    const byNew = signCallback({ ...input, secrets: [newSecret] });
    const byOld = signCallback({ ...input, secrets: [oldSecret] });
    expect(rotated['Signature-Hash']).toBe(`${byNew['Signature-Hash']} ${byOld['Signature-Hash']}`);
    expect(rotated['webhook-signature']).toBe(`${byNew['webhook-signature']} ${byOld['webhook-signature']}`);
    expect(rotated['Signature-Timestamp']).toBe('1763741000');
    expect(rotated['webhook-timestamp']).toBe('1763741000');
  });

  it('signs the id into webhook-signature but not into Signature-Hash', () => {
    const first = signCallback({ secrets: [oldSecret], id: 'cb_a', timestamp: 1763741000, body });
    const second = signCallback({ secrets: [oldSecret], id: 'cb_b', timestamp: 1763741000, body });
    expect(second['Signature-Hash']).toBe(first['Signature-Hash']);
    expect(second['webhook-signature']).not.toBe(first['webhook-signature']);
  });

  it.each([
    ['an empty id', '', /visible ASCII/],
    ['an id with a space', 'cb 1', /visible ASCII/],
    ['an id with a line break', 'cb\r\n1', /visible ASCII/],
  ])('rejects %s', (_name, id, message) => {
    expect(() => signCallback({ secrets: [oldSecret], id, timestamp: 1763741000, body })).toThrow(message);
  });

  it.each([
    ['a fractional timestamp', 1763741000.5],
    ['a negative timestamp', -1],
    ['a timestamp in milliseconds beyond safe integers', 2 ** 60],
    ['NaN', Number.NaN],
  ])('rejects %s', (_name, timestamp) => {
    expect(() => signCallback({ secrets: [oldSecret], id: 'cb_1', timestamp, body })).toThrow(
      `Expected a timestamp in whole Unix seconds, received ${timestamp}.`,
    );
  });

  it('rejects an empty list of secrets and a malformed secret', () => {
    expect(() => signCallback({ secrets: [], id: 'cb_1', timestamp: 1, body })).toThrow(
      /at least one secret/,
    );
    expect(() => signCallback({ secrets: ['secret'], id: 'cb_1', timestamp: 1, body })).toThrow(/whsec_/);
  });
});
