import { describe, expect, it } from 'vitest';
import { stkOutcome } from './stk-result-codes.js';

describe('stkOutcome', () => {
  it('reads 0 as the payment made, and nothing else', () => {
    expect(stkOutcome('0')).toEqual({ kind: 'paid' });
    expect(stkOutcome('00').kind).toBe('declined');
  });

  it.each([
    ['1', "the payer's M-Pesa balance was insufficient"],
    ['17', 'the same amount was requested from this payer within the last two minutes'],
    ['1032', 'the payer cancelled the payment prompt'],
    ['1037', 'the payer could not be reached to show the payment prompt'],
    ['2001', 'the payer entered a wrong M-Pesa PIN'],
    ['SFC_IC0003', 'the payer has no M-Pesa account'],
  ])('reads %s as a declined payment, saying why', (code, reason) => {
    expect(stkOutcome(code)).toEqual({ kind: 'declined', reason });
  });

  it('reads a code Daraja never documented as a payment that did not happen, naming the code', () => {
    expect(stkOutcome('4242')).toEqual({
      kind: 'declined',
      reason: 'the payment did not happen (M-Pesa result 4242)',
    });
  });
});
