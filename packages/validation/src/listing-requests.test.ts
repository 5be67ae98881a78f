import { describe, expect, it } from 'vitest';
import { requestJsonSchema } from './api-functions.js';
import { encodeStatementCursor, encodeTransactionCursor } from './listing-cursors.js';
import { parseListStatement, parseListTransactions } from './listing-requests.js';

const transactionCursor = encodeTransactionCursor({
  createdMicros: '1763723109000000',
  reference: 'TXF7K2M9QA',
});
const statementCursor = encodeStatementCursor({ postingId: '4096' });

describe('parseListTransactions', () => {
  it('takes an empty body as every transaction, 50 to a page', () => {
    expect(parseListTransactions({})).toStrictEqual({ ok: true, value: { limit: 50 } });
  });

  it('takes every filter, normalising the mobile and the limit', () => {
    expect(
      parseListTransactions({
        type: 'Agent Float',
        state: 'cancelled',
        from: '2025-11-01',
        to: ' 2025-12-01T00:00:00+03:00 ',
        reference: ' TXF7K2M9QA ',
        idempotency_key: 'order-1042',
        mobile: '+254 712 345 678',
        limit: '0100',
        cursor: transactionCursor,
      }),
    ).toStrictEqual({
      ok: true,
      value: {
        type: 'Agent Float',
        state: 'cancelled',
        from: '2025-11-01',
        to: '2025-12-01T00:00:00+03:00',
        reference: 'TXF7K2M9QA',
        idempotency_key: 'order-1042',
        mobile: '254712345678',
        limit: 100,
        cursor: transactionCursor,
      },
    });
  });

  it('reads blank and null filters as not given, as XML empty elements arrive', () => {
    expect(parseListTransactions({ type: '', state: null, limit: ' ', cursor: '' })).toStrictEqual({
      ok: true,
      value: { limit: 50 },
    });
  });

  it('names every bad field once, in field order', () => {
    expect(
      parseListTransactions({
        type: 'airtime',
        state: 'Requested',
        from: '2025-02-30',
        to: 1763723109,
        reference: 'R'.repeat(101),
        idempotency_key: 'has space',
        mobile: '12345',
        limit: 101,
        cursor: statementCursor,
      }),
    ).toStrictEqual({
      ok: false,
      errors: [
        "'type is invalid'",
        "'state is invalid'",
        "'from is invalid'",
        "'to is invalid'",
        "'reference is invalid'",
        "'idempotency_key is invalid'",
        "'mobile is invalid'",
        "'limit is invalid'",
        "'cursor is invalid'",
      ],
    });
  });

  it.each([0, -1, '1.5', '1e2', 1.5, '101', 'fifty'])('refuses the limit %j', (limit) => {
    expect(parseListTransactions({ limit })).toStrictEqual({ ok: false, errors: ["'limit is invalid'"] });
  });

  it('takes an Idempotency-Key of up to 255 visible ASCII characters, as the header does', () => {
    expect(parseListTransactions({ idempotency_key: '~'.repeat(255) }).ok).toBe(true);
    expect(parseListTransactions({ idempotency_key: '~'.repeat(256) }).ok).toBe(false);
    expect(parseListTransactions({ idempotency_key: 'clé' }).ok).toBe(false);
  });
});

describe('parseListStatement', () => {
  it('needs the channel, by the name get_balance shows', () => {
    expect(parseListStatement({ channel: 'Agent Float' })).toStrictEqual({
      ok: true,
      value: { channel: 'Agent Float', limit: 50 },
    });
    expect(parseListStatement({})).toStrictEqual({ ok: false, errors: ["'channel is required.'"] });
    expect(parseListStatement({ channel: 'float' })).toStrictEqual({
      ok: false,
      errors: ["'channel is invalid'"],
    });
  });

  it('takes date bounds, a limit and a statement cursor, and refuses a transactions cursor', () => {
    expect(
      parseListStatement({ channel: 'Airtime', from: '2025-11-21 14:05', limit: 7, cursor: statementCursor }),
    ).toStrictEqual({
      ok: true,
      value: { channel: 'Airtime', from: '2025-11-21 14:05', limit: 7, cursor: statementCursor },
    });
    expect(parseListStatement({ channel: 'Airtime', cursor: transactionCursor })).toStrictEqual({
      ok: false,
      errors: ["'cursor is invalid'"],
    });
  });
});

describe('the listing request schemas', () => {
  it('document list_transactions’ filters in order, none required', () => {
    const schema = requestJsonSchema('list_transactions');
    expect(Object.keys(schema.properties ?? {})).toEqual([
      'type',
      'state',
      'from',
      'to',
      'reference',
      'idempotency_key',
      'mobile',
      'limit',
      'cursor',
    ]);
    expect(schema.required).toBeUndefined();
  });

  it('document list_statement with its channel required', () => {
    const schema = requestJsonSchema('list_statement');
    expect(Object.keys(schema.properties ?? {})).toEqual(['channel', 'from', 'to', 'limit', 'cursor']);
    expect(schema.required).toEqual(['channel']);
    expect(schema.properties?.channel).toMatchObject({ enum: ['Agent Float', 'Airtime'] });
  });
});
