// A console user for tests, signed in the way a browser is: a user and a one-time link made in the store
// as the test's setting (no second admin to approve an admin), its password set through the console API,
// and the session cookie and CSRF token kept for every later call. Calls go over real HTTP to the running
// test service.

import { createSignInLink, createUser } from '@topup/operators';
import type { Store } from '@topup/ledger';
import { rawRequest } from './raw-http.js';

export interface ConsoleUserOptions {
  readonly email: string;
  readonly role: 'admin' | 'support' | 'caller';
  readonly account?: string;
}

export interface ConsoleClient {
  readonly cookie: string;
  readonly csrf: string;
  /** A console API call; `csrf: false` leaves out the CSRF header, `headers` adds or overrides. */
  post(
    path: string,
    body?: unknown,
    options?: { csrf?: boolean; headers?: Record<string, string> },
  ): Promise<Response>;
  get(path: string): Promise<Response>;
}

export const consolePassword = 'a test password that is long';

/** The token of a new one-time sign-in link for a new user. */
export async function newUserLink(store: Store, user: ConsoleUserOptions): Promise<string> {
  const made = await createUser(
    store,
    { email: user.email, role: user.role, accountId: user.account },
    new Date(),
  );
  return createSignInLink(store, made.id, new Date());
}

export function consoleClient(baseUrl: string, cookie: string, csrf: string): ConsoleClient {
  return {
    cookie,
    csrf,
    post: async (path, body = {}, options = {}) => {
      const answer = await rawRequest(baseUrl, {
        path: `/console/api${path}`,
        headers: {
          'Content-Type': 'application/json',
          Cookie: cookie,
          ...(options.csrf === false ? {} : { 'X-Topup-CSRF': csrf }),
          ...options.headers,
        },
        body: JSON.stringify(body),
      });
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers))
        for (const one of Array.isArray(value) ? value : [value ?? '']) headers.append(name, one);
      return new Response(answer.body, { status: answer.status, headers });
    },
    get: (path) => fetch(`${baseUrl}/console/api${path}`, { headers: { Cookie: cookie } }),
  };
}

/** Creates the user, sets its password through its link, and returns its signed-in client. */
export async function signedInUser(
  baseUrl: string,
  store: Store,
  user: ConsoleUserOptions,
): Promise<ConsoleClient> {
  const token = await newUserLink(store, user);
  const answer = await fetch(`${baseUrl}/console/api/session/link`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token, password: consolePassword }),
  });
  if (answer.status !== 200)
    throw new Error(`sign-in by link answered ${answer.status}: ${await answer.text()}`);
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { csrf } = (await answer.json()) as { csrf: string };
  return consoleClient(baseUrl, cookie, csrf);
}
