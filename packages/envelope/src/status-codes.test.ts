import { describe, expect, it } from 'vitest';
import {
  alternateHttpStatus,
  failureMessage,
  statusCodes,
  successMessages,
  type FailureCode,
} from './status-codes.js';

// Written from the spec's Errors table and docs/architecture.md, Codes and HTTP statuses, not from the table under test.
const expected: [FailureCode, string, number][] = [
  ['1000', 'Invalid API Request', 400],
  ['2000', 'Invalid Request Method', 405],
  ['3000', 'Missing or Invalid Parameters', 422],
  ['4000', 'Invalid API Token', 401],
  ['5000', 'Request Not Allowed', 403],
  ['6000', 'Invalid Account', 403],
  ['7000', 'Insufficient Balance', 402],
  ['8000', 'Agent Float Cancelled', 409],
  ['9000', 'Gateway Error', 502],
];

describe('the status-code table', () => {
  it('lists 0000 as SUCCESS with the balance-found text the spec gives it, and HTTP 200', () => {
    expect(statusCodes['0000']).toStrictEqual({
      code: '0000',
      type: 'SUCCESS',
      message: 'Balance found',
      httpStatus: 200,
    });
    expect(statusCodes['0000'].message).toBe(successMessages.balanceFound);
  });

  it.each(expected)('lists %s as FAIL "%s" with HTTP %i', (code, message, httpStatus) => {
    expect(statusCodes[code]).toStrictEqual({ code, type: 'FAIL', message, httpStatus });
  });

  it('lists exactly the ten codes of the spec, 0000 and the nine failure codes', () => {
    expect(Object.keys(statusCodes).sort()).toStrictEqual(['0000', ...expected.map(([code]) => code)]);
  });

  it('has the two 8000 messages, one per operation', () => {
    expect(failureMessage('8000', 'send_agent_float')).toBe('Agent Float Cancelled');
    expect(failureMessage('8000', 'buy_airtime')).toBe('Purchase Cancelled');
  });

  it('refuses to pick an 8000 message without the operation', () => {
    const code = '8000' as FailureCode;
    expect(() => failureMessage(code, undefined)).toThrow(
      'Expected an operation (send_agent_float, buy_airtime or send_airtime) with status code 8000',
    );
  });

  it('keeps the operation out of every other code’s message', () => {
    expect(failureMessage('7000', 'buy_airtime')).toBe('Insufficient Balance');
  });

  it('names the HTTP statuses docs/architecture.md gives for particular triggers', () => {
    expect(alternateHttpStatus).toStrictEqual({
      unknownFunction: 404,
      rateLimited: 429,
      idempotencyConflict: 409,
      storeUnavailable: 503,
    });
  });
});
