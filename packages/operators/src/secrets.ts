// Random secrets handed to browsers (session ids, sign-in link tokens) and how they are kept: only a
// SHA-256 hash is stored, so a copy of the database signs nobody in.

import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, base64url: the session id or link token a browser holds. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** What the store keeps of a secret. */
export function secretHash(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** A short random id for users and funding requests, prefixed by what it names. */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
