// Proving who one is to the console: with email and password, or once with a sign-in link on which the
// password is set. Each success starts a new session; nothing says whether it was the email or the
// password that was wrong.

import type { Store } from '@topup/ledger';
import { OperatorError } from './operator-error.js';
import { passwordProblem, unmatchableHash, verifyPassword } from './passwords.js';
import { startSession, type SessionLifetimes } from './sessions.js';
import { findUser, findUserByEmail, linkUser, setPasswordByLink, type ConsoleUser } from './users.js';

export interface SignedIn {
  readonly sessionId: string;
  readonly user: ConsoleUser;
}

/** What using a sign-in link came to; a link that cannot be used is `spent` (used or expired) or `unknown`. */
export type LinkSignIn =
  ({ readonly kind: 'signed_in' } & SignedIn) | { readonly kind: 'spent' } | { readonly kind: 'unknown' };

/** A new session, or undefined when the email and password do not match a user with a password. */
export async function signIn(
  store: Store,
  email: string,
  password: string,
  lifetimes: SessionLifetimes,
  now: Date,
): Promise<SignedIn | undefined> {
  const user = await findUserByEmail(store, email);
  // An unknown user costs one hash as well, so timing does not tell which emails have accounts.
  const matches = await verifyPassword(password, user?.passwordHash ?? unmatchableHash);
  if (user === undefined || user.passwordHash === undefined || !matches) return undefined;
  return { sessionId: await startSession(store, user, lifetimes, now), user };
}

/**
 * Sets the password through a one-time link and signs in; the link is then used up. A link that cannot be
 * used says whether the service ever made it (`spent`: used or expired) or not (`unknown`: a guess).
 */
export async function signInWithLink(
  store: Store,
  token: string,
  password: string,
  lifetimes: SessionLifetimes,
  now: Date,
): Promise<LinkSignIn> {
  const problem = passwordProblem(password);
  if (problem !== undefined) throw new OperatorError('invalid', problem, [problem]);
  return store.transaction(async (tx): Promise<LinkSignIn> => {
    const user = await setPasswordByLink(tx, token, password, now);
    if (user === undefined)
      return { kind: (await linkUser(tx, token, now)).kind === 'unknown' ? 'unknown' : 'spent' };
    return { kind: 'signed_in', sessionId: await startSession(tx, user, lifetimes, now), user };
  });
}

/** Whether a password is the user's own: re-authentication within a session. */
export async function passwordMatches(store: Store, userId: string, password: string): Promise<boolean> {
  const user = await findUser(store, userId);
  return verifyPassword(password, user?.passwordHash ?? unmatchableHash);
}
