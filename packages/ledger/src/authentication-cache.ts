// A short-lived cache of successful token authentications, so a busy caller costs one token lookup per
// `ttlMs` instead of one per request. Only valid tokens are kept (a token issued elsewhere works at once);
// a revocation or an account status change made through this ledger drops the affected entries at once,
// and one made by another process is seen within `ttlMs`. Entries are keyed by the token's hash, never by
// the token itself, and their number is bounded.

import type { AuthenticatedToken } from './tokens.js';

export interface AuthenticationCache {
  /** The cached authentication of `tokenHash`, or the result of `lookup` (kept when it is a valid token). */
  get(
    tokenHash: string,
    lookup: () => Promise<AuthenticatedToken | undefined>,
  ): Promise<AuthenticatedToken | undefined>;
  forgetToken(tokenId: string): void;
  forgetAccount(accountId: string): void;
}

interface Entry {
  readonly expiresAt: number;
  readonly session: Promise<AuthenticatedToken | undefined>;
  /** Known once the lookup has answered. */
  tokenId?: string;
  accountId?: string;
}

/** A cache holding each valid token for `ttlMs` (0 disables it), at most `maxEntries` tokens at once. */
export function createAuthenticationCache(
  ttlMs: number,
  now: () => number = Date.now,
  maxEntries = 10_000,
): AuthenticationCache {
  const entries = new Map<string, Entry>();
  const forgetWhere = (matches: (entry: Entry) => boolean) => {
    for (const [hash, entry] of entries) if (matches(entry)) entries.delete(hash);
  };
  return {
    get(tokenHash, lookup) {
      if (ttlMs <= 0) return lookup();
      const cached = entries.get(tokenHash);
      if (cached !== undefined && cached.expiresAt > now()) return cached.session;
      entries.delete(tokenHash);
      if (entries.size >= maxEntries) {
        // Maps iterate in insertion order: the first entry is the oldest.
        const oldest = entries.keys().next();
        if (oldest.done !== true) entries.delete(oldest.value);
      }
      // Concurrent requests with the same token share one lookup.
      const session = lookup();
      const entry: Entry = { expiresAt: now() + ttlMs, session };
      entries.set(tokenHash, entry);
      session.then(
        (found) => {
          if (found === undefined) {
            if (entries.get(tokenHash) === entry) entries.delete(tokenHash);
            return;
          }
          entry.tokenId = found.tokenId;
          entry.accountId = found.account.id;
        },
        () => {
          if (entries.get(tokenHash) === entry) entries.delete(tokenHash);
        },
      );
      return session;
    },
    forgetToken(tokenId) {
      // An entry still looking up may belong to the token: drop those too.
      forgetWhere((entry) => entry.tokenId === undefined || entry.tokenId === tokenId);
    },
    forgetAccount(accountId) {
      forgetWhere((entry) => entry.accountId === undefined || entry.accountId === accountId);
    },
  };
}
