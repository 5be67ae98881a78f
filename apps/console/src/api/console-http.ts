// The one way the console talks to its server: same-origin fetch with the session cookie, JSON bodies,
// the CSRF header on every POST, and every failure turned into a ConsoleApiError. It also notices a
// session that ended under the user's feet, so whatever screen is open can fall back to signing in.

import { ConsoleApiError, errorFromAnswer, isSessionEnded } from './console-api-error';

export interface ConsoleHttpOptions {
  /** The session's CSRF token, or "" before there is a session (the header is then left out). */
  readonly csrfToken: () => string;
  /** Called when a call is answered 401 `unauthenticated` while the app thought it had a session. */
  readonly onSessionEnded: () => void;
  /** Injected by tests; the browser's fetch otherwise. */
  readonly fetch?: typeof fetch;
}

export interface RequestOptions {
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Session calls (sign-in, re-authentication, the first look at the session) answer 401 for a wrong
   * password or no session yet; that is theirs to show, not a sign that a session ended.
   */
  readonly sessionCall?: boolean;
}

export interface ConsoleHttp {
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
}

async function parsedBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

export function createConsoleHttp(options: ConsoleHttpOptions): ConsoleHttp {
  const send = async (path: string, init: RequestInit, requestOptions: RequestOptions): Promise<unknown> => {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(path, { ...init, credentials: 'same-origin' });
    } catch {
      throw new ConsoleApiError(0, 'network', 'The console could not reach the server; try again.');
    }
    const body = await parsedBody(response);
    if (response.ok) return body;
    const error = errorFromAnswer(response.status, body);
    if (requestOptions.sessionCall !== true && isSessionEnded(error)) options.onSessionEnded();
    throw error;
  };

  return {
    async get<T>(path: string, requestOptions: RequestOptions = {}) {
      const headers = { Accept: 'application/json', ...requestOptions.headers };
      return (await send(path, { method: 'GET', headers }, requestOptions)) as T;
    },
    async post<T>(path: string, body: unknown, requestOptions: RequestOptions = {}) {
      const csrf = options.csrfToken();
      const headers = {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        ...(csrf === '' ? {} : { 'X-Topup-CSRF': csrf }),
        ...requestOptions.headers,
      };
      return (await send(path, { method: 'POST', headers, body: JSON.stringify(body) }, requestOptions)) as T;
    },
  };
}
