// The session calls of docs/console.md: who is signed in, signing in by password or by a one-time link,
// signing out and entering the password again before a sensitive change.

import type { Role } from '@topup/operators/catalog';
import { isSessionEnded } from './console-api-error';
import type { ConsoleHttp } from './console-http';

export type { Role };

export interface SessionUser {
  id: string;
  email: string;
  role: Role;
  /** The caller's account; "" for operators. */
  account: string;
}

export interface Session {
  user: SessionUser;
  csrf: string;
  /** ISO 8601, or "" when the password was not entered again lately. */
  reauthenticated_until: string;
  /** The service's time zone (TZ), in which the console shows every time. */
  time_zone: string;
}

const base = '/console/api/session';
const sessionCall = { sessionCall: true } as const;

/** The current session, or undefined when there is none. */
export async function fetchSession(http: ConsoleHttp): Promise<Session | undefined> {
  try {
    return await http.get<Session>(base, sessionCall);
  } catch (error) {
    if (isSessionEnded(error)) return undefined;
    throw error;
  }
}

export function signIn(http: ConsoleHttp, email: string, password: string): Promise<Session> {
  return http.post<Session>(`${base}/sign-in`, { email, password }, sessionCall);
}

export function signOut(http: ConsoleHttp): Promise<unknown> {
  return http.post(`${base}/sign-out`, {}, sessionCall);
}

export function reauthenticate(
  http: ConsoleHttp,
  password: string,
): Promise<{ reauthenticated_until: string }> {
  return http.post(`${base}/reauthenticate`, { password }, sessionCall);
}

/** The email a one-time link belongs to, while the link is valid and unused. */
export function linkInfo(http: ConsoleHttp, token: string): Promise<{ email: string }> {
  return http.post(`${base}/link-info`, { token }, sessionCall);
}

/** Sets the password with a one-time link, which uses the link up and signs in. */
export function setPasswordWithLink(http: ConsoleHttp, token: string, password: string): Promise<Session> {
  return http.post<Session>(`${base}/link`, { token, password }, sessionCall);
}
