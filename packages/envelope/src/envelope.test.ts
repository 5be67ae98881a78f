import { describe, expect, it } from 'vitest';
import { callbackResponse, cancellationCallback, failure, success } from './envelope.js';
import type { FailureCode, FixedMessageCode } from './status-codes.js';

describe('success', () => {
  it('writes SUCCESS/0000 with the message given', () => {
    expect(success('Balance found', { channels: [] }).status).toStrictEqual({
      type: 'SUCCESS',
      code: '0000',
      message: 'Balance found',
    });
  });

  it('puts an empty errors list first, then the data fields in the order given', () => {
    const envelope = success('ok', { zeta: 'z', alpha: 'a', middle: { b: '1', a: '2' } });
    expect(Object.keys(envelope.data)).toStrictEqual(['errors', 'zeta', 'alpha', 'middle']);
    expect(envelope.data.errors).toStrictEqual([]);
    expect(Object.keys(envelope.data.middle)).toStrictEqual(['b', 'a']);
  });

  it('refuses data that carries its own errors field', () => {
    expect(() => success('ok', { errors: ['x'] })).toThrow(/without an "errors" field/);
  });
});

describe('failure', () => {
  it('holds only errors in data', () => {
    const envelope = failure('3000', ["'mobile is required.'", "'amount is invalid'"]);
    expect(Object.keys(envelope.data)).toStrictEqual(['errors']);
    expect(envelope.data.errors).toStrictEqual(["'mobile is required.'", "'amount is invalid'"]);
  });

  it('has an empty errors list when none are given', () => {
    expect(failure('4000')).toStrictEqual({
      status: { type: 'FAIL', code: '4000', message: 'Invalid API Token' },
      data: { errors: [] },
    });
  });

  it('copies the errors, so later changes to the caller’s list do not leak in', () => {
    const errors = ['first'];
    const envelope = failure('9000', errors);
    errors.push('second');
    expect(envelope.data.errors).toStrictEqual(['first']);
  });

  it.each<[FixedMessageCode, string]>([
    ['1000', 'Invalid API Request'],
    ['2000', 'Invalid Request Method'],
    ['3000', 'Missing or Invalid Parameters'],
    ['4000', 'Invalid API Token'],
    ['5000', 'Request Not Allowed'],
    ['6000', 'Invalid Account'],
    ['7000', 'Insufficient Balance'],
    ['9000', 'Gateway Error'],
  ])('gives code %s the message "%s"', (code, message) => {
    expect(failure(code).status).toStrictEqual({ type: 'FAIL', code, message });
  });

  it('says "Agent Float Cancelled" for an 8000 of send_agent_float', () => {
    expect(failure('8000', [], { operation: 'send_agent_float' }).status.message).toBe(
      'Agent Float Cancelled',
    );
  });

  it('says "Purchase Cancelled" for an 8000 of buy_airtime', () => {
    expect(failure('8000', [], { operation: 'buy_airtime' }).status.message).toBe('Purchase Cancelled');
  });

  it('refuses an 8000 without an operation, whose message depends on it', () => {
    // @ts-expect-error -- the types demand the operation for 8000
    expect(() => failure('8000')).toThrow(/Expected an operation .* with status code 8000/);
  });

  it('refuses an 8000 known only at run time when the options carry no operation', () => {
    const code = '8000' as FailureCode;
    expect(() => failure(code, [], {})).toThrow(TypeError);
  });
});

describe('cancellationCallback', () => {
  it('is FAIL/8000 with the operation’s message, errors first and then the transaction data', () => {
    const callback = cancellationCallback('buy_airtime', ['payment declined'], {
      transaction: { reference: 'TX1', status: 'Cancelled' },
    });
    expect(callback.status).toStrictEqual({ type: 'FAIL', code: '8000', message: 'Purchase Cancelled' });
    expect(Object.keys(callback.data)).toStrictEqual(['errors', 'transaction']);
    expect(callback.data.errors).toStrictEqual(['payment declined']);
  });

  it('refuses data that carries its own errors field', () => {
    expect(() => cancellationCallback('send_agent_float', [], { errors: [] })).toThrow(TypeError);
  });
});

describe('callbackResponse', () => {
  it('is SUCCESS/0000/Callback processed with no data object', () => {
    const response = callbackResponse();
    expect(response).toStrictEqual({
      status: { type: 'SUCCESS', code: '0000', message: 'Callback processed' },
    });
    expect(Object.hasOwn(response, 'data')).toBe(false);
  });
});
