import { describe, expect, it } from 'vitest';
import { INITIATOR_RESULT_CODES, initiatorOutcome } from './initiator-result-codes.js';

describe('initiatorOutcome', () => {
  it('reads 0, and a reversal’s already-reversed R000001, as the call done', () => {
    expect(initiatorOutcome('0')).toBe('done');
    expect(initiatorOutcome('R000001')).toBe('done');
  });

  it.each(['1', '2001', '21', '18', '11', '2028', '8006', 'R000002', 'SFC_IC0003'])(
    'reads %s, documented as refused before any money moved, as declined',
    (code) => {
      expect(initiatorOutcome(code)).toBe('declined');
    },
  );

  it.each(['15', '17', '19', '26', '2032', '1001', '9999'])(
    'reads %s, which does not say the call moved nothing, as unknown (ask Transaction Status)',
    (code) => {
      expect(initiatorOutcome(code)).toBe('unknown');
    },
  );
});

describe('INITIATOR_RESULT_CODES', () => {
  it('gives Daraja’s own descriptions, the catch-all 17 among them', () => {
    expect(INITIATOR_RESULT_CODES.get('17')).toEqual({ description: 'Internal Failure', final: false });
    expect(INITIATOR_RESULT_CODES.get('26')).toEqual({
      description: 'Traffic blocking condition in place',
      final: false,
    });
    expect(INITIATOR_RESULT_CODES.get('21')).toEqual({
      description: 'The initiator is not allowed to initiate this request.',
      final: true,
    });
    expect(INITIATOR_RESULT_CODES.has('1001')).toBe(false);
  });
});
