// Proving who one is to the console: with email and password, or once with a sign-in link on which the
// password is set; and signing out. Each success starts a new session; nothing says whether it was the
// email or the password that was wrong, or that the user is disabled. Every sign-in, failed sign-in and
// sign-out is audited, with the address it came from, in the transaction of the session it starts or ends.

import type { Store } from '@topup/ledger';
import { recordAudit } from './audit-log.js';
import { OperatorError } from './operator-error.js';
import { passwordProblem, unmatchableHash, verifyPassword } from './passwords.js';
import { endSession, startSession, type Session, type SessionLifetimes } from './sessions.js';
import {
  findUser,
  findUserByEmail,
  linkUser,
  normalisedEmail,
  setPasswordByLink,
  type ConsoleUser,
} from './users.js';

/** Where a sign-in or sign-out came from: the client's address, which its audit record keeps. */
export interface SignInAttempt {
  readonly address: string;
}

/** The email a failed sign-in named, as its audit record keeps it: bounded, whatever was sent. */
function namedEmail(email: string): string {
  return normalisedEmail(email).slice(0, 254);
}

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
  attempt: SignInAttempt,
): Promise<SignedIn | undefined> {
  const user = await findUserByEmail(store, email);
  // An unknown user costs one hash as well, so timing does not tell which emails have accounts.
  const matches = await verifyPassword(password, user?.passwordHash ?? unmatchableHash);
  if (user === undefined || user.passwordHash === undefined || user.disabledAt !== undefined || !matches) {
    const named = namedEmail(email);
    await recordAudit(
      store,
      { actor: named, action: 'sign_in_failed', target: named, after: { address: attempt.address } },
      now,
    );
    return undefined;
  }
  return store.transaction(async (tx) => {
    const sessionId = await startSession(tx, user, lifetimes, now);
    await recordAudit(
      tx,
      { actor: user.email, action: 'sign_in', target: user.email, after: { address: attempt.address } },
      now,
    );
    return { sessionId, user };
  });
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
  attempt: SignInAttempt,
): Promise<LinkSignIn> {
  const problem = passwordProblem(password);
  if (problem !== undefined) throw new OperatorError('invalid', problem, [problem]);
  return store.transaction(async (tx): Promise<LinkSignIn> => {
    const user = await setPasswordByLink(tx, token, password, now);
    if (user === undefined) {
      const link = await linkUser(tx, token, now);
      if (link.kind !== 'unknown') return { kind: 'spent' };
      // A link token nobody made is a guess, audited like a wrong password.
      await recordAudit(
        tx,
        { actor: '', action: 'sign_in_failed', target: '', after: { address: attempt.address, by: 'link' } },
        now,
      );
      return { kind: 'unknown' };
    }
    const sessionId = await startSession(tx, user, lifetimes, now);
    await recordAudit(
      tx,
      {
        actor: user.email,
        action: 'sign_in',
        target: user.email,
        after: { address: attempt.address, by: 'link' },
      },
      now,
    );
    return { kind: 'signed_in', sessionId, user };
  });
}

/** Ends a session at the user's asking, audited in the same transaction. */
export async function signOut(
  store: Store,
  session: Session,
  now: Date,
  attempt: SignInAttempt,
): Promise<void> {
  await store.transaction(async (tx) => {
    await endSession(tx, session, now);
    await recordAudit(
      tx,
      {
        actor: session.email,
        action: 'sign_out',
        target: session.email,
        after: { address: attempt.address },
      },
      now,
    );
  });
}

/** Whether a password is the user's own: re-authentication within a session. */
export async function passwordMatches(store: Store, userId: string, password: string): Promise<boolean> {
  const user = await findUser(store, userId);
  return verifyPassword(password, user?.passwordHash ?? unmatchableHash);
}
