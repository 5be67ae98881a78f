import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeStatementCursor,
  decodeTransactionCursor,
  encodeStatementCursor,
  encodeTransactionCursor,
} from './listing-cursors.js';

const base64url = (text: string) =>
  Buffer.from(text, 'utf8').toString('base64').replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');

describe('the listing cursors', () => {
  it('read back every transaction position they write, as base64url text', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 18n - 1n }).map(String),
        fc.string({ minLength: 1, maxLength: 100, unit: 'grapheme' }),
        (createdMicros, reference) => {
          const cursor = encodeTransactionCursor({ createdMicros, reference });
          expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
          if (reference.length <= 100) {
            expect(decodeTransactionCursor(cursor)).toStrictEqual({ createdMicros, reference });
          }
        },
      ),
    );
  });

  it('read back every statement position they write', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(String), (postingId) => {
        expect(decodeStatementCursor(encodeStatementCursor({ postingId }))).toStrictEqual({ postingId });
      }),
    );
  });

  it('tell the two listings’ cursors apart', () => {
    const transaction = encodeTransactionCursor({ createdMicros: '1763723109000000', reference: 'TX1' });
    const statement = encodeStatementCursor({ postingId: '4096' });
    expect(decodeStatementCursor(transaction)).toBeUndefined();
    expect(decodeTransactionCursor(statement)).toBeUndefined();
  });

  it.each([
    ['an empty text', ''],
    ['text that is not base64url', 'not a cursor'],
    ['base64 with padding', `${base64url('["s","4096"]')}==`],
    ['standard base64 characters', base64url('["t","1","TX?>?"]').replaceAll('_', '/')],
    ['JSON that is not a list', base64url('{"t":1}')],
    ['a list with a number', base64url('["s",4096]')],
    ['JSON spelled with spaces', base64url('["s", "4096"]')],
    ['a negative posting id', base64url('["s","-1"]')],
    ['a posting id past 2^63', base64url(`["s","${2n ** 63n}"]`)],
    ['a posting id with a leading zero', base64url('["s","04096"]')],
    ['bytes that are not UTF-8', Buffer.from([0x5b, 0x22, 0xff, 0x22, 0x5d]).toString('base64url')],
    ['a text past 512 characters', 'A'.repeat(513)],
  ])('refuse %s', (_case, text) => {
    expect(decodeStatementCursor(text)).toBeUndefined();
    expect(decodeTransactionCursor(text)).toBeUndefined();
  });

  it('refuse a transaction position with a time that is not microseconds or a reference out of bounds', () => {
    for (const values of [
      ['t', '1.5', 'TX1'],
      ['t', '-1', 'TX1'],
      ['t', '1', ''],
      ['t', '1', 'R'.repeat(101)],
      ['t', '1', 'TX\u0000'],
      ['t', '1', 'TX1', 'extra'],
    ]) {
      expect(
        decodeTransactionCursor(base64url(JSON.stringify(values))),
        JSON.stringify(values),
      ).toBeUndefined();
    }
  });

  it('accept only the one canonical spelling of a position', () => {
    // Thirteen bytes: the last of 18 characters carries 4 unused low bits, so another character there
    // decodes to the same bytes.
    const cursor = encodeStatementCursor({ postingId: '40960' });
    const last = cursor.at(-1) ?? '';
    const twin = `${cursor.slice(0, -1)}${String.fromCharCode(last.charCodeAt(0) + 1)}`;
    expect(Buffer.from(twin, 'base64url').toString()).toBe(Buffer.from(cursor, 'base64url').toString());
    expect(decodeStatementCursor(twin)).toBeUndefined();
  });
});
