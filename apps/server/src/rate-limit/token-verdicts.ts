// What this process recently learned about tokens, so the authentication-failure limit costs little:
// a token known valid is looked up without touching the failure counter (a busy caller pays nothing for
// the limit), and a token known invalid is refused without a lookup (a client repeating a revoked token
// costs no database query). A verdict only saves work: a known-valid token is still authenticated, and
// its verdict flips when that fails. Tokens are kept as SHA-256 digests, never themselves; each verdict
// lasts `ttlMs`, and each kind holds at most `maxEntries`, so a flood of guesses cannot push out the
// valid tokens.

import { hash } from 'node:crypto';

export type Verdict = 'valid' | 'invalid';

/** A token's SHA-256 digest, the key its verdicts are kept under. */
export type TokenKey = string & { readonly tokenKey: unique symbol };

export interface TokenVerdicts {
  /** The key of `token`: computed once per request, which reads and then writes the token's verdict. */
  keyOf(token: string): TokenKey;
  get(key: TokenKey): Verdict | undefined;
  set(key: TokenKey, verdict: Verdict): void;
}

export function createTokenVerdicts(
  ttlMs = 600_000,
  maxEntries = 10_000,
  now: () => number = Date.now,
): TokenVerdicts {
  const kinds: Record<Verdict, Map<string, number>> = { valid: new Map(), invalid: new Map() };
  return {
    // The one-shot hash: no Hash object per call, which a lookup on every request would otherwise pay.
    keyOf: (token) => hash('sha256', token, 'base64') as TokenKey,
    get(digest) {
      for (const verdict of ['valid', 'invalid'] as const) {
        const expiresAt = kinds[verdict].get(digest);
        if (expiresAt === undefined) continue;
        if (expiresAt > now()) return verdict;
        kinds[verdict].delete(digest);
      }
      return undefined;
    },
    set(digest, verdict) {
      kinds[verdict === 'valid' ? 'invalid' : 'valid'].delete(digest);
      const entries = kinds[verdict];
      // Re-inserting moves the token to the end; Maps iterate in insertion order, oldest first.
      entries.delete(digest);
      if (entries.size >= maxEntries) {
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
      entries.set(digest, now() + ttlMs);
    },
  };
}
