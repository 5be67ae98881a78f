import { describe, expect, it } from 'vitest';
import { STK_RESULT_CODES, stkOutcome } from './stk-result-codes.js';

describe('stkOutcome', () => {
  it('reads 0 as the payment made, and nothing else', () => {
    expect(stkOutcome('0')).toEqual({ kind: 'paid' });
    expect(stkOutcome('00').kind).toBe('unknown');
  });

  it.each([
    ['1', "the payer's M-Pesa balance was insufficient"],
    ['8', "the paybill or till's M-Pesa account balance limit would be exceeded"],
    ['17', 'the same amount was requested from this payer within the last two minutes'],
    ['1032', 'the payer cancelled the payment prompt'],
    ['1037', "the payer's phone could not be reached with the payment prompt"],
    ['2001', 'the payer entered a wrong M-Pesa PIN'],
    ['2028', 'M-Pesa does not permit this payment for the paybill or till (wrong TransactionType or PartyB)'],
    ['SFC_IC0003', 'M-Pesa does not know the paybill or till paid (wrong TransactionType or PartyB)'],
  ])('reads the documented code %s as a final decline, saying why', (code, reason) => {
    expect(stkOutcome(code)).toEqual({ kind: 'declined', reason });
  });

  it.each(['4242', '1001', '500.001.1001', ''])(
    'reads the undocumented code %j as unknown, never as a decline',
    (code) => {
      expect(stkOutcome(code)).toEqual({
        kind: 'unknown',
        reason: `M-Pesa result ${code} is not documented: the payment is unknown`,
      });
    },
  );
});

describe('STK_RESULT_CODES', () => {
  it('holds the fourteen non-zero codes of Daraja’s M-Pesa Express table, with Daraja’s descriptions', () => {
    expect([...STK_RESULT_CODES.keys()]).toEqual([
      '1',
      '2',
      '3',
      '4',
      '8',
      '17',
      '1019',
      '1025',
      '1032',
      '1037',
      '2001',
      '2028',
      '8006',
      'SFC_IC0003',
    ]);
    expect(STK_RESULT_CODES.get('2001')?.description).toBe('The initiator information is invalid.');
    expect(STK_RESULT_CODES.get('SFC_IC0003')?.description).toBe('The operator does not exist.');
    expect(STK_RESULT_CODES.get('2028')?.description).toBe(
      'The request is not permitted according to product assignment.',
    );
  });
});
