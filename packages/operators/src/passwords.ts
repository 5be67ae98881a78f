// Console passwords: scrypt with a random salt per password, stored as one self-describing string so the
// cost can be raised later without losing older hashes. Comparison takes the same time whatever matches.

import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const cost = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const keyLength = 32;

/** Password rules: long enough to resist guessing, short enough that hashing one cannot be abused. */
export const passwordLength = { min: 12, max: 200 } as const;

/** What is wrong with a password, or undefined when it may be used. */
export function passwordProblem(password: unknown): string | undefined {
  if (typeof password !== 'string') return 'password is required';
  if (password.length < passwordLength.min)
    return `password must have at least ${passwordLength.min} characters`;
  if (password.length > passwordLength.max)
    return `password must have at most ${passwordLength.max} characters`;
  return undefined;
}

function derive(password: string, salt: Buffer, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, keyLength, { N, r, p, maxmem: cost.maxmem }, (error, key) => {
      if (error === null) resolve(key);
      else reject(error);
    });
  });
}

/** `scrypt$N$r$p$salt$key`, salt and key in base64url. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost.N, cost.r, cost.p);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` is the one `stored` was made from; a malformed stored hash matches nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || salt === undefined || key === undefined) return false;
  const expected = Buffer.from(key, 'base64url');
  const derived = await derive(password, Buffer.from(salt, 'base64url'), Number(n), Number(r), Number(p));
  return derived.length === expected.length && timingSafeEqual(derived, expected);
}

/**
 * A hash no password matches, verified against when an email is unknown so that a sign-in takes as long
 * for an unknown user as for a wrong password.
 */
export const unmatchableHash = `scrypt$${cost.N}$${cost.r}$${cost.p}$${'A'.repeat(22)}$${'A'.repeat(43)}`;
