import { describe, expect, it } from 'vitest';
import { describeFetchFailure, neverConnected } from './connection-failure.js';

function fetchFailure(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

function systemError(code: string, message = `${code.toLowerCase()} happened`): Error {
  return Object.assign(new Error(message), { code });
}

describe('neverConnected', () => {
  it.each(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'UND_ERR_CONNECT_TIMEOUT'])(
    'is true for %s while connecting',
    (code) => {
      expect(neverConnected(fetchFailure(systemError(code)))).toBe(true);
    },
  );

  it.each(['ECONNRESET', 'UND_ERR_SOCKET', 'EPIPE'])(
    'is false for %s, which can happen after sending',
    (code) => {
      expect(neverConnected(fetchFailure(systemError(code)))).toBe(false);
    },
  );

  it('is true when every address of an AggregateError refused', () => {
    const cause = new AggregateError([systemError('ECONNREFUSED'), systemError('ECONNREFUSED')]);
    expect(neverConnected(fetchFailure(cause))).toBe(true);
  });

  it('is false when one address of an AggregateError failed otherwise', () => {
    const cause = new AggregateError([systemError('ECONNREFUSED'), systemError('ECONNRESET')]);
    expect(neverConnected(fetchFailure(cause))).toBe(false);
  });

  it('is false for a failure without a cause or a code', () => {
    expect(neverConnected(new TypeError('fetch failed'))).toBe(false);
    expect(neverConnected(fetchFailure(new Error('bad port')))).toBe(false);
    expect(neverConnected('not an error')).toBe(false);
  });
});

describe('describeFetchFailure', () => {
  it('names the code and message of the cause', () => {
    expect(describeFetchFailure(fetchFailure(systemError('ECONNRESET', 'read ECONNRESET')))).toBe(
      'ECONNRESET: read ECONNRESET',
    );
  });

  it('falls back to the message of the cause, then of the error', () => {
    expect(describeFetchFailure(fetchFailure(new Error('bad port')))).toBe('bad port');
    expect(describeFetchFailure(new TypeError('fetch failed'))).toBe('fetch failed');
  });
});
