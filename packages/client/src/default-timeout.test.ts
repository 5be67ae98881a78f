// The default per-attempt timeout, on fake timers: 30 s must pass, and no less, before a call that gets
// no answer fails. The fetch never answers; it only rejects when its signal aborts, as fetch does.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createClient } from './create-client.js';
import { TopupTransportError } from './transport-error.js';

const token = 'tk_test_0123456789abcdefghijABCDEFGHIJ';
const baseUrl = 'http://127.0.0.1:9/';

/** A fetch that answers nothing and rejects with the signal's reason once the signal aborts. */
function silentFetch(): typeof fetch {
  return (_input, init) =>
    new Promise<Response>((_resolve, reject) => {
      const signal = init?.signal;
      if (signal === undefined || signal === null) {
        reject(new Error('Expected the client to pass a signal to fetch, received none.'));
        return;
      }
      signal.addEventListener('abort', () => {
        reject(signal.reason instanceof Error ? signal.reason : new Error(String(signal.reason)));
      });
    });
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('the default timeout', () => {
  it('lets an unanswered attempt run for 30 s and then fails it as a transport error', async () => {
    const client = createClient({ baseUrl, token, retries: 0, fetch: silentFetch() });
    let settled: unknown;
    const call = client.getBalance().then(
      () => (settled = 'resolved'),
      (error: unknown) => (settled = error),
    );

    await vi.advanceTimersByTimeAsync(29_999);
    expect(settled).toBeUndefined();

    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(settled).toBeInstanceOf(TopupTransportError);
    const error = settled as TopupTransportError;
    expect(error.mayHaveReachedServer).toBe(true);
    expect(error.message).toBe(
      'Expected an answer from http://127.0.0.1:9/api/get_balance within 30000 ms, received none in time.',
    );
    expect((error.cause as Error).name).toBe('TimeoutError');
  });

  it('gives way to a shorter limit passed with the call', async () => {
    const client = createClient({ baseUrl, token, retries: 0, fetch: silentFetch() });
    let settled: unknown;
    const call = client.getBalance({}, { timeoutMs: 5_000 }).catch((error: unknown) => (settled = error));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await call;
    expect(settled).toBeInstanceOf(TopupTransportError);
  });
});
