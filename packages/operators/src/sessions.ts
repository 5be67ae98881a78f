// Console sessions, kept server-side. The browser holds the session id in a cookie; the store keeps only
// its hash. A session ends when it has been idle too long, when its absolute lifetime is over, at sign-out,
// when the user's password changes, and when the user is disabled. Re-authentication (the password typed
// again) is recorded on the session and lasts a few minutes: revealing a secret or funding asks for it.

import { createHash } from 'node:crypto';
import type { Queryable } from '@topup/ledger';
import type { ConsoleUser, Role } from './users.js';
import { newSecret, secretHash } from './secrets.js';

export interface SessionLifetimes {
  readonly idleMs: number;
  readonly absoluteMs: number;
}

/** How long a re-authentication lets its session reveal secrets and fund. */
export const reauthenticationMs = 5 * 60_000;

// Refreshing `last_seen_at` on every request would write once per click; to within this much is enough for
// an idle limit counted in minutes.
const touchEveryMs = 15_000;

export interface Session {
  readonly idHash: string;
  readonly userId: string;
  readonly email: string;
  readonly role: Role;
  readonly accountId: string | undefined;
  /** When the user's account was made: an approval needs an admin older than the request. */
  readonly userSince: Date;
  readonly reauthenticatedUntil: Date | undefined;
}

/** The token a session's state-changing requests carry; derived from the id, so it is never stored. */
export function csrfToken(sessionId: string): string {
  return createHash('sha256').update(`csrf:${sessionId}`).digest('base64url');
}

/** Starts a session for a user who has just proved who they are; the returned id goes in the cookie. */
export async function startSession(
  db: Queryable,
  user: ConsoleUser,
  lifetimes: SessionLifetimes,
  now: Date,
): Promise<string> {
  const id = newSecret();
  await db.query(
    `INSERT INTO console_sessions (id_hash, user_id, created_at, last_seen_at, expires_at, reauthenticated_at)
     VALUES ($1, $2, $3, $3, $4, $3)`,
    [secretHash(id), user.id, now, new Date(now.getTime() + lifetimes.absoluteMs)],
  );
  return id;
}

interface SessionRow {
  id_hash: string;
  user_id: string;
  email: string;
  role: Role;
  account_id: string | null;
  user_created_at: Date | string;
  last_seen_at: Date | string;
  reauthenticated_at: Date | string | null;
}

/** The live session a cookie names, refreshing its idle clock; undefined when it is unknown or over. */
export async function currentSession(
  db: Queryable,
  sessionId: string,
  lifetimes: SessionLifetimes,
  now: Date,
): Promise<Session | undefined> {
  const idHash = secretHash(sessionId);
  const { rows } = await db.query<SessionRow>(
    `SELECT s.id_hash, s.user_id, s.last_seen_at, s.reauthenticated_at, u.email, u.role, u.account_id,
       u.created_at AS user_created_at
     FROM console_sessions s JOIN console_users u ON u.id = s.user_id
     WHERE s.id_hash = $1 AND s.ended_at IS NULL AND s.expires_at > $2 AND s.last_seen_at > $3
       AND u.disabled_at IS NULL`,
    [idHash, now, new Date(now.getTime() - lifetimes.idleMs)],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  if (now.getTime() - new Date(row.last_seen_at).getTime() > touchEveryMs) {
    await db.query('UPDATE console_sessions SET last_seen_at = $2 WHERE id_hash = $1', [idHash, now]);
  }
  const reauthenticatedUntil =
    row.reauthenticated_at === null
      ? undefined
      : new Date(new Date(row.reauthenticated_at).getTime() + reauthenticationMs);
  return {
    idHash,
    userId: row.user_id,
    email: row.email,
    role: row.role,
    accountId: row.account_id ?? undefined,
    userSince: new Date(row.user_created_at),
    reauthenticatedUntil:
      reauthenticatedUntil !== undefined && reauthenticatedUntil > now ? reauthenticatedUntil : undefined,
  };
}

export async function noteReauthentication(db: Queryable, session: Session, now: Date): Promise<Date> {
  await db.query('UPDATE console_sessions SET reauthenticated_at = $2 WHERE id_hash = $1', [
    session.idHash,
    now,
  ]);
  return new Date(now.getTime() + reauthenticationMs);
}

export async function endSession(db: Queryable, session: Session, now: Date): Promise<void> {
  await db.query('UPDATE console_sessions SET ended_at = $2 WHERE id_hash = $1', [session.idHash, now]);
}
