import { describe, expect, it, vi } from 'vitest';
import { ConsoleApiError } from './console-api-error';
import type { ConsoleHttp } from './console-http';
import { fetchSession } from './session-api';

function httpFailing(error: ConsoleApiError) {
  return { get: vi.fn(() => Promise.reject(error)), post: vi.fn() } as unknown as ConsoleHttp;
}

describe('fetchSession', () => {
  it('is undefined when there is no session', async () => {
    const http = httpFailing(new ConsoleApiError(401, 'unauthenticated', 'No session'));
    await expect(fetchSession(http)).resolves.toBeUndefined();
  });

  it('fails when the server cannot say', async () => {
    const http = httpFailing(new ConsoleApiError(0, 'network', 'unreachable'));
    await expect(fetchSession(http)).rejects.toMatchObject({ code: 'network' });
  });
});
