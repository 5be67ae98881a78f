// Golden fixtures: each file under fixtures/ is a callback in one shape Daraja sends, and what we read.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseStkCallback } from './stk-callback.js';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as unknown;
}

describe('parseStkCallback', () => {
  it('reads a payment made, with its receipt and amount, from the documented sample', () => {
    expect(parseStkCallback(fixture('stk-callback-paid'))).toEqual({
      ok: true,
      callback: {
        merchantRequestId: '29115-34620561-1',
        checkoutRequestId: 'ws_CO_191220191020363925',
        resultCode: '0',
        resultDesc: 'The service request is processed successfully.',
        outcome: { kind: 'paid' },
        receipt: 'NLJ7RT61SV',
        amountMinor: 100n,
        mobile: '254708374149',
      },
    });
  });

  it('reads a cancelled prompt, which has no metadata, as declined with the reason', () => {
    const read = parseStkCallback(fixture('stk-callback-cancelled'));
    expect(read).toMatchObject({
      ok: true,
      callback: {
        resultCode: '1032',
        outcome: { kind: 'declined', reason: 'the payer cancelled the payment prompt' },
        receipt: '',
        amountMinor: undefined,
      },
    });
  });

  it('reads a result code sent as a string', () => {
    expect(parseStkCallback(fixture('stk-callback-string-code'))).toMatchObject({
      ok: true,
      callback: { resultCode: 'SFC_IC0003', outcome: { kind: 'declined' } },
    });
  });

  it('reads a masked PhoneNumber as text, and an undocumented code as unknown rather than declined', () => {
    expect(parseStkCallback(fixture('stk-callback-masked-phone'))).toMatchObject({
      ok: true,
      callback: { outcome: { kind: 'paid' }, amountMinor: 50_000n, mobile: '2547******149' },
    });
    expect(parseStkCallback(fixture('stk-callback-undocumented-code'))).toMatchObject({
      ok: true,
      callback: { resultCode: '1001', outcome: { kind: 'unknown' }, receipt: '', mobile: undefined },
    });
  });

  it('reads a metadata list of one sent as a bare object, and "0" as a payment', () => {
    expect(parseStkCallback(fixture('stk-callback-single-item'))).toMatchObject({
      ok: true,
      callback: { outcome: { kind: 'paid' }, receipt: 'TKO1AB2CD3', amountMinor: undefined },
    });
  });

  it('says what is missing instead of guessing, and never throws', () => {
    expect(parseStkCallback(undefined)).toEqual({
      ok: false,
      problem: 'expected Body.stkCallback, found none',
    });
    expect(parseStkCallback('<html>502</html>')).toMatchObject({ ok: false });
    expect(parseStkCallback({ Body: { stkCallback: { ResultCode: 0 } } })).toEqual({
      ok: false,
      problem: 'expected a CheckoutRequestID, found none',
    });
    expect(parseStkCallback({ Body: { stkCallback: { CheckoutRequestID: 'ws_1' } } })).toEqual({
      ok: false,
      problem: 'expected a ResultCode for ws_1, found none',
    });
    expect(parseStkCallback({ Body: { stkCallback: { CheckoutRequestID: 'ws_1', ResultCode: 0 } } })).toEqual(
      {
        ok: false,
        problem: 'expected an MpesaReceiptNumber on the payment ws_1, found none',
      },
    );
  });
});
