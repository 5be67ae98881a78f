// Console users and their one-time sign-in links. A user is an operator (admin, or support, read-only) or
// a caller bound to one account. A link lets its holder set the user's password once within its lifetime;
// only the link token's hash is stored, and making a new link ends every older one of that user. A
// disabled user has no session and no link, and cannot sign in until enabled again.

import type { Queryable } from '@topup/ledger';
import { OperatorError } from './operator-error.js';
import { hashPassword } from './passwords.js';
import { newId, newSecret, secretHash } from './secrets.js';

export const roles = ['admin', 'support', 'caller'] as const;
export type Role = (typeof roles)[number];

export interface ConsoleUser {
  readonly id: string;
  readonly email: string;
  readonly role: Role;
  /** The account a caller user sees; undefined for operators. */
  readonly accountId: string | undefined;
  readonly hasPassword: boolean;
  readonly createdAt: Date;
  /** When the user was disabled; undefined while they may sign in. */
  readonly disabledAt: Date | undefined;
}

/** How long a sign-in link may be used. */
export const signInLinkMinutes = 15;

interface UserRow {
  id: string;
  email: string;
  role: Role;
  account_id: string | null;
  password_hash: string | null;
  created_at: Date | string;
  disabled_at: Date | string | null;
}

function userOf(row: UserRow): ConsoleUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    accountId: row.account_id ?? undefined,
    hasPassword: row.password_hash !== null,
    createdAt: new Date(row.created_at),
    disabledAt: row.disabled_at === null ? undefined : new Date(row.disabled_at),
  };
}

const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The form an email is kept and looked up in. */
export function normalisedEmail(email: string): string {
  return email.trim().toLowerCase();
}

export interface NewUser {
  readonly email: string;
  readonly role: string;
  readonly accountId?: string | undefined;
}

/** Checks a new user's fields and lists every problem, so one answer says all that must change. */
function newUserProblems(user: NewUser): string[] {
  const problems: string[] = [];
  if (!emailShape.test(normalisedEmail(user.email)) || user.email.length > 254)
    problems.push(`email must be an address such as ops@example.com, received ${JSON.stringify(user.email)}`);
  if (!(roles as readonly string[]).includes(user.role))
    problems.push(`role must be admin, support or caller, received ${JSON.stringify(user.role)}`);
  if (user.role === 'caller' && user.accountId === undefined)
    problems.push('account is required for a caller user');
  if (user.role !== 'caller' && user.accountId !== undefined)
    problems.push(`account is only for caller users, received one for role ${user.role}`);
  return problems;
}

/** Refuses a new user that could not be made: a bad field, an unknown account, an email already in use. */
export async function checkNewUser(db: Queryable, user: NewUser): Promise<void> {
  const problems = newUserProblems(user);
  if (problems.length > 0) throw new OperatorError('invalid', problems.join('; '), problems);
  if (user.accountId !== undefined) {
    const { rows } = await db.query('SELECT 1 FROM accounts WHERE id = $1', [user.accountId]);
    if (rows.length === 0) throw new OperatorError('not_found', `No account ${user.accountId}.`);
  }
  if ((await findUserByEmail(db, user.email)) !== undefined) throw alreadyExists(user.email);
}

function alreadyExists(email: string): OperatorError {
  return new OperatorError('conflict', `A user with email ${normalisedEmail(email)} already exists.`);
}

export async function createUser(db: Queryable, user: NewUser, now: Date): Promise<ConsoleUser> {
  await checkNewUser(db, user);
  const { rows } = await db.query<UserRow>(
    `INSERT INTO console_users (id, email, role, account_id, created_at, updated_at)
     VALUES ($1, $2, $3, $4, $5, $5) ON CONFLICT (email) DO NOTHING RETURNING *`,
    [newId('usr'), normalisedEmail(user.email), user.role, user.accountId ?? null, now],
  );
  const created = rows[0];
  if (created === undefined) throw alreadyExists(user.email);
  return userOf(created);
}

export async function findUserByEmail(
  db: Queryable,
  email: string,
): Promise<(ConsoleUser & { readonly passwordHash: string | undefined }) | undefined> {
  const { rows } = await db.query<UserRow>('SELECT * FROM console_users WHERE email = $1', [
    normalisedEmail(email),
  ]);
  const row = rows[0];
  return row === undefined ? undefined : { ...userOf(row), passwordHash: row.password_hash ?? undefined };
}

export async function findUser(
  db: Queryable,
  id: string,
): Promise<(ConsoleUser & { readonly passwordHash: string | undefined }) | undefined> {
  const { rows } = await db.query<UserRow>('SELECT * FROM console_users WHERE id = $1', [id]);
  const row = rows[0];
  return row === undefined ? undefined : { ...userOf(row), passwordHash: row.password_hash ?? undefined };
}

export async function listUsers(db: Queryable): Promise<ConsoleUser[]> {
  const { rows } = await db.query<UserRow>('SELECT * FROM console_users ORDER BY email LIMIT 1000');
  return rows.map(userOf);
}

/** A new one-time link token for the user; older unused links of the user stop working. */
export async function createSignInLink(db: Queryable, userId: string, now: Date): Promise<string> {
  const token = newSecret();
  await db.query('UPDATE console_sign_in_links SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [
    userId,
    now,
  ]);
  await db.query(
    `INSERT INTO console_sign_in_links (token_hash, user_id, created_at, expires_at)
     VALUES ($1, $2, $3, $4)`,
    [secretHash(token), userId, now, new Date(now.getTime() + signInLinkMinutes * 60_000)],
  );
  return token;
}

/**
 * What a link token is: `valid` for its user while unused and within its lifetime; `spent` when the service
 * made it but it is used or expired (presenting it again is no guess); `unknown` when nobody made it.
 */
export type LinkLookup =
  | { readonly kind: 'valid'; readonly user: ConsoleUser }
  | { readonly kind: 'spent' }
  | { readonly kind: 'unknown' };

/** Looks a link token up; see `LinkLookup`. */
export async function linkUser(db: Queryable, token: string, now: Date): Promise<LinkLookup> {
  const { rows } = await db.query<UserRow & { link_open: boolean }>(
    `SELECT u.*, (l.used_at IS NULL AND l.expires_at > $2 AND u.disabled_at IS NULL) AS link_open
     FROM console_sign_in_links l JOIN console_users u ON u.id = l.user_id WHERE l.token_hash = $1`,
    [secretHash(token), now],
  );
  const row = rows[0];
  if (row === undefined) return { kind: 'unknown' };
  return row.link_open ? { kind: 'valid', user: userOf(row) } : { kind: 'spent' };
}

/**
 * Uses a link up and sets the user's password, in one statement pair inside the caller's transaction: of
 * two browsers racing with the same link, exactly one sets the password.
 */
export async function setPasswordByLink(
  db: Queryable,
  token: string,
  password: string,
  now: Date,
): Promise<ConsoleUser | undefined> {
  const passwordHash = await hashPassword(password);
  const { rows } = await db.query<{ user_id: string }>(
    `UPDATE console_sign_in_links SET used_at = $2
     WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 RETURNING user_id`,
    [secretHash(token), now],
  );
  const used = rows[0];
  if (used === undefined) return undefined;
  const updated = await db.query<UserRow>(
    `UPDATE console_users SET password_hash = $2, updated_at = $3 WHERE id = $1 AND disabled_at IS NULL
     RETURNING *`,
    [used.user_id, passwordHash, now],
  );
  // A new password ends every session the old one opened.
  await db.query('UPDATE console_sessions SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL', [
    used.user_id,
    now,
  ]);
  const row = updated.rows[0];
  return row === undefined ? undefined : userOf(row);
}

/** The user with this email, or a not_found naming it. */
export async function userByEmail(
  db: Queryable,
  email: string,
): Promise<ConsoleUser & { readonly passwordHash: string | undefined }> {
  const user = await findUserByEmail(db, email);
  if (user === undefined)
    throw new OperatorError('not_found', `No user with email ${normalisedEmail(email)}.`);
  return user;
}

/**
 * Disables or enables a user, inside the caller's transaction. Disabling ends the user's sessions and
 * unused links at once. Undefined when the user already was so.
 */
export async function setUserDisabled(
  db: Queryable,
  userId: string,
  disabled: boolean,
  now: Date,
): Promise<ConsoleUser | undefined> {
  const { rows } = await db.query<UserRow>(
    `UPDATE console_users SET disabled_at = CASE WHEN $2 THEN $3::timestamptz END, updated_at = $3
     WHERE id = $1 AND (disabled_at IS NULL) = $2 RETURNING *`,
    [userId, disabled, now],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  if (disabled) {
    await db.query('UPDATE console_sessions SET ended_at = $2 WHERE user_id = $1 AND ended_at IS NULL', [
      userId,
      now,
    ]);
    await db.query('UPDATE console_sign_in_links SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL', [
      userId,
      now,
    ]);
  }
  return userOf(row);
}

/** How many enabled admins there are besides the one with `email`: who could approve what an admin asks. */
export async function otherAdmins(db: Queryable, email: string): Promise<number> {
  const { rows } = await db.query<{ admins: number }>(
    `SELECT count(*)::int AS admins FROM console_users
     WHERE role = 'admin' AND disabled_at IS NULL AND email <> $1`,
    [normalisedEmail(email)],
  );
  return rows[0]?.admins ?? 0;
}
