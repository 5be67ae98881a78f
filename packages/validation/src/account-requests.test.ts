import { describe, expect, it } from 'vitest';
import { parseGetBalance, parseGetTransaction } from './account-requests.js';

describe('parseGetBalance', () => {
  it.each([{}, { anything: 1 }, null, 'body'])('accepts %j, as the function takes no fields', (input) => {
    expect(parseGetBalance(input)).toEqual({ ok: true, value: {} });
  });
});

describe('parseGetTransaction', () => {
  it('accepts a reference, trimmed', () => {
    expect(parseGetTransaction({ reference: ' TX-42 ' })).toEqual({
      ok: true,
      value: { reference: 'TX-42' },
    });
  });

  it.each([{}, { reference: '' }, { reference: null }, []])('requires a reference: %j', (input) => {
    expect(parseGetTransaction(input)).toEqual({ ok: false, errors: ["'reference is required.'"] });
  });

  it.each([42, 'r'.repeat(101), ['TX-42']])('rejects the reference %j', (reference) => {
    expect(parseGetTransaction({ reference })).toEqual({ ok: false, errors: ["'reference is invalid'"] });
  });
});
