import { describe, expect, it, vi } from 'vitest';
import { ConsoleApiError } from './console-api-error';
import { createConsoleHttp } from './console-http';

function answering(status: number, body: unknown) {
  return vi.fn<typeof fetch>(() =>
    Promise.resolve(new Response(body === undefined ? '' : JSON.stringify(body), { status })),
  );
}

function client(fetch: typeof globalThis.fetch, csrf = 'csrf-1') {
  const onSessionEnded = vi.fn();
  const http = createConsoleHttp({ fetch, csrfToken: () => csrf, onSessionEnded });
  return { http, onSessionEnded };
}

describe('createConsoleHttp', () => {
  it('posts JSON with the session cookie and the CSRF header', async () => {
    const fetch = answering(200, { data: { ok: true } });
    const { http } = client(fetch);

    await expect(http.post('/console/api/operator/verify_ledger', { a: 1 })).resolves.toEqual({
      data: { ok: true },
    });

    const [path, init] = fetch.mock.calls[0]!;
    expect(path).toBe('/console/api/operator/verify_ledger');
    expect(init).toMatchObject({ method: 'POST', credentials: 'same-origin', body: '{"a":1}' });
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json', 'X-Topup-CSRF': 'csrf-1' });
  });

  it('leaves the CSRF header out before there is a session', async () => {
    const fetch = answering(200, {});
    await client(fetch, '').http.post('/console/api/session/sign-in', {});
    expect(fetch.mock.calls[0]![1]?.headers).not.toHaveProperty('X-Topup-CSRF');
  });

  it('throws the error body as a ConsoleApiError', async () => {
    const { http } = client(answering(409, { error: { code: 'conflict', message: 'Not your own request' } }));
    await expect(http.post('/x', {})).rejects.toMatchObject({ httpStatus: 409, code: 'conflict' });
  });

  it('reports a session that ended under a call', async () => {
    const { http, onSessionEnded } = client(
      answering(401, { error: { code: 'unauthenticated', message: 'Session expired' } }),
    );
    await expect(http.post('/console/api/call/get_balance', {})).rejects.toBeInstanceOf(ConsoleApiError);
    expect(onSessionEnded).toHaveBeenCalledOnce();
  });

  it('leaves a session call’s 401 (a wrong password) to that call', async () => {
    const { http, onSessionEnded } = client(
      answering(401, { error: { code: 'unauthenticated', message: 'Wrong email or password' } }),
    );
    await expect(http.post('/console/api/session/sign-in', {}, { sessionCall: true })).rejects.toMatchObject({
      message: 'Wrong email or password',
    });
    expect(onSessionEnded).not.toHaveBeenCalled();
  });

  it('turns an unreachable server into a network error', async () => {
    const { http } = client(vi.fn<typeof fetch>(() => Promise.reject(new TypeError('Failed to fetch'))));
    await expect(http.get('/console/api/session')).rejects.toMatchObject({ httpStatus: 0, code: 'network' });
  });
});
