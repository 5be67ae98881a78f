// Golden fixtures: STK Query answers as Daraja gives them (fixtures/stk-query-*.json), and what we read.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { darajaErrorOf } from './daraja-error.js';
import { readStkQueryAnswer, stkQueryRequest } from './stk-query.js';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8');

describe('stkQueryRequest', () => {
  it('asks about one prompt with the password of its own timestamp, in East Africa Time', () => {
    expect(
      stkQueryRequest({
        shortCode: '174379',
        passkey: 'passkey',
        checkoutRequestId: 'ws_CO_13012021093521236557',
        at: new Date('2026-11-24T21:05:09Z'),
      }),
    ).toEqual({
      BusinessShortCode: '174379',
      Password: 'MTc0Mzc5cGFzc2tleTIwMjYxMTI1MDAwNTA5',
      Timestamp: '20261125000509',
      CheckoutRequestID: 'ws_CO_13012021093521236557',
    });
  });
});

describe('readStkQueryAnswer', () => {
  it('reads an ended prompt’s result code, sent as a string', () => {
    const body = JSON.parse(fixture('stk-query-cancelled')) as Record<string, unknown>;
    expect(readStkQueryAnswer({ kind: 'ok', body })).toEqual({
      kind: 'ended',
      resultCode: '1032',
      outcome: { kind: 'declined', reason: 'the payer cancelled the payment prompt' },
    });
    expect(readStkQueryAnswer({ kind: 'ok', body: { ...body, ResultCode: 0 } })).toMatchObject({
      kind: 'ended',
      outcome: { kind: 'paid' },
    });
  });

  it('reads a result code Daraja does not document as unknown, never as a decline', () => {
    const body = JSON.parse(fixture('stk-query-cancelled')) as Record<string, unknown>;
    expect(
      readStkQueryAnswer({ kind: 'ok', body: { ...body, ResultCode: '4999', ResultDesc: 'Something' } }),
    ).toEqual({
      kind: 'unknown',
      problem: 'M-Pesa result 4999 is not documented: the payment is unknown (Something)',
    });
  });

  it('reads “being processed” as pending, not failed', () => {
    expect(
      readStkQueryAnswer({ kind: 'error', error: darajaErrorOf(500, fixture('stk-query-processing')) }),
    ).toEqual({ kind: 'pending' });
  });

  it('leaves the payment unknown on silence, another error or an answer without a result', () => {
    expect(readStkQueryAnswer({ kind: 'no_answer', problem: 'no answer within 10000 ms' })).toEqual({
      kind: 'unknown',
      problem: 'no answer within 10000 ms',
    });
    expect(
      readStkQueryAnswer({
        kind: 'error',
        error: darajaErrorOf(500, '{"errorCode":"500.003.02","errorMessage":"Spike arrest violation"}'),
      }),
    ).toEqual({ kind: 'unknown', problem: 'HTTP 500 500.003.02 Spike arrest violation' });
    expect(
      readStkQueryAnswer({
        kind: 'error',
        error: darajaErrorOf(503, '<html><body>Service Unavailable</body></html>'),
      }),
    ).toMatchObject({ kind: 'unknown' });
    expect(readStkQueryAnswer({ kind: 'ok', body: { ResponseCode: '0' } })).toEqual({
      kind: 'unknown',
      problem: 'expected a ResultCode in the STK Query answer, found none',
    });
  });
});
