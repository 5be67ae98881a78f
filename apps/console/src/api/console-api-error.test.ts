import { describe, expect, it } from 'vitest';
import {
  ConsoleApiError,
  errorFromAnswer,
  isSessionEnded,
  isUnknownReference,
  needsReauthentication,
} from './console-api-error';

describe('errorFromAnswer', () => {
  it('reads the console error body, with problems as lines', () => {
    const error = errorFromAnswer(400, {
      error: {
        code: 'invalid',
        message: 'The request breaks a rule',
        problems: ['email is required', { path: ['amount'], message: 'must be digits' }],
      },
    });
    expect(error).toMatchObject({
      httpStatus: 400,
      code: 'invalid',
      message: 'The request breaks a rule',
      problems: ['email is required', 'amount: must be digits'],
    });
  });

  it('reads a failed API envelope as its status code and data.errors', () => {
    const error = errorFromAnswer(422, {
      status: { type: 'FAIL', code: '3000', message: 'Missing or Invalid Parameters' },
      data: { errors: ["'url is invalid'"] },
    });
    expect(error).toMatchObject({
      code: '3000',
      message: 'Missing or Invalid Parameters',
      problems: ["'url is invalid'"],
    });
  });

  it('names the HTTP status when the body is not one the console knows', () => {
    const error = errorFromAnswer(502, undefined);
    expect(error).toBeInstanceOf(ConsoleApiError);
    expect(error).toMatchObject({ code: 'unexpected_answer', message: 'The server answered HTTP 502' });
  });
});

describe('what an error asks of the app', () => {
  it('a 401 unauthenticated is a session that ended', () => {
    expect(isSessionEnded(new ConsoleApiError(401, 'unauthenticated', 'no session'))).toBe(true);
    expect(isSessionEnded(new ConsoleApiError(403, 'forbidden', 'no'))).toBe(false);
    expect(isSessionEnded(new Error('unauthenticated'))).toBe(false);
  });

  it('a 403 reauthentication_required asks for the password again', () => {
    expect(needsReauthentication(new ConsoleApiError(403, 'reauthentication_required', 'again'))).toBe(true);
    expect(needsReauthentication(new ConsoleApiError(403, 'csrf', 'bad header'))).toBe(false);
  });
});

describe('isUnknownReference', () => {
  it('is the API’s answer for a reference the account does not have, and nothing else', () => {
    const unknown = errorFromAnswer(422, {
      status: { type: 'FAIL', code: '3000', message: 'Missing or Invalid Parameters' },
      data: { errors: ["'reference is invalid'"] },
    });
    expect(isUnknownReference(unknown)).toBe(true);
    const other = errorFromAnswer(422, {
      status: { type: 'FAIL', code: '3000', message: 'Missing or Invalid Parameters' },
      data: { errors: ["'endpoint_id is invalid'"] },
    });
    expect(isUnknownReference(other)).toBe(false);
    expect(isUnknownReference(new ConsoleApiError(0, 'network', 'no answer'))).toBe(false);
  });
});
