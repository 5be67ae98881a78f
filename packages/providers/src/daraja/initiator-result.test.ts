// Golden fixtures: each file under fixtures/ is a Result in one shape Daraja sends, and what we read.

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseInitiatorResult } from './initiator-result.js';

function fixture(name: string): unknown {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8')) as unknown;
}

describe('parseInitiatorResult', () => {
  it('reads a completed B2B payment with its receipt and parameters, leaving out keys without values', () => {
    const read = parseInitiatorResult(fixture('b2b-result-paid'));
    expect(read).toMatchObject({
      ok: true,
      result: {
        resultType: '0',
        resultCode: '0',
        originatorConversationId: '626f6ddf-ab37-4650-b882-b1de92ec9aa4',
        conversationId: 'AG_20261124_0000568dae54d7a63b0f',
        transactionId: 'TKO5X7Y8Z9',
      },
    });
    if (!read.ok) throw new Error(read.problem);
    expect(read.result.parameters.get('Amount')).toBe('190.00');
    expect(read.result.parameters.get('TransCompletedTime')).toBe('20261124102115');
    expect(read.result.parameters.get('DebitPartyCharges')).toBe('');
    expect(read.result.parameters.has('InitiatorAccountCurrentBalance')).toBe(false);
  });

  it('reads a failure sent with numeric codes and a single bare parameter', () => {
    const read = parseInitiatorResult(fixture('b2b-result-failed'));
    expect(read).toMatchObject({
      ok: true,
      result: { resultType: '0', resultCode: '2001', resultDesc: 'The initiator information is invalid.' },
    });
    if (!read.ok) throw new Error(read.problem);
    expect([...read.result.parameters]).toEqual([['BOCompletedTime', '20261124102115']]);
  });

  it('reads a reversal’s letter code, and a Result without parameters', () => {
    expect(parseInitiatorResult(fixture('reversal-result-already-reversed'))).toMatchObject({
      ok: true,
      result: { resultCode: 'R000001', parameters: new Map() },
    });
  });

  it('says what is missing instead of guessing, and never throws', () => {
    expect(parseInitiatorResult(null)).toEqual({
      ok: false,
      problem: 'expected a Result object, found none',
    });
    expect(parseInitiatorResult({ Result: { ResultCode: 0 } })).toEqual({
      ok: false,
      problem: 'expected a ConversationID or OriginatorConversationID, found neither',
    });
    expect(parseInitiatorResult({ Result: { ConversationID: 'AG_1', ResultCode: ' ' } })).toEqual({
      ok: false,
      problem: 'expected a ResultCode for AG_1, found none',
    });
  });
});
