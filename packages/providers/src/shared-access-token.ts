// One provider access token for every process. Daraja invalidates its previous token whenever it issues a
// new one, so the token lives in the store where every process reads it; it is fetched again once less
// than a minute of it is left, by one process at a time (a PostgreSQL advisory lock; PGlite has only one
// process), and a process whose token was refused takes the one another process already fetched rather
// than fetching, and so invalidating, yet another.

import type { Queryable, Store } from '@topup/ledger';
import { providerTablesReady } from './provider-migrations.js';

/**
 * A token as the provider issued it.
 *
 * @example
 * ```ts
 * import type { IssuedToken } from '@topup/providers';
 *
 * const issued: IssuedToken = { token: 'c9SQxWWhmdVRlyh0zh8gZDTkubVF', expiresInSeconds: 3599 };
 * ```
 */
export interface IssuedToken {
  readonly token: string;
  readonly expiresInSeconds: number;
}

/**
 * How a shared token is kept and fetched.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import type { SharedAccessTokenOptions } from '@topup/providers';
 *
 * const options: SharedAccessTokenOptions = {
 *   store: await openStore({ dataDir: 'memory://' }),
 *   provider: 'daraja',
 *   issue: () => Promise.resolve({ token: 'abc', expiresInSeconds: 3599 }),
 * };
 * ```
 */
export interface SharedAccessTokenOptions {
  readonly store: Store;
  /** Whose token: the key it is stored under. */
  readonly provider: string;
  /** Asks the provider for a new token. */
  readonly issue: () => Promise<IssuedToken>;
  readonly now?: () => Date;
  /** How long before its expiry a token is replaced. Default one minute. */
  readonly renewBeforeMs?: number;
}

/**
 * A provider's token, shared by every process on the store.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createSharedAccessToken } from '@topup/providers';
 *
 * const tokens = createSharedAccessToken({
 *   store: await openStore({ dataDir: 'memory://' }),
 *   provider: 'daraja',
 *   issue: () => Promise.resolve({ token: 'abc', expiresInSeconds: 3599 }),
 * });
 * await tokens.current(); // 'abc'
 * ```
 */
export interface SharedAccessToken {
  /** A token with more than the renewal margin left, fetched first when there is none. */
  current(): Promise<string>;
  /** A token other than `refused`: one another process fetched meanwhile, or a new one. */
  renew(refused: string): Promise<string>;
}

interface Held {
  readonly token: string;
  readonly expiresAt: number;
}

interface TokenRow {
  token: string;
  expires_at: Date;
}

/**
 * Keeps `options.provider`'s token in the store for every process, fetching it through `options.issue`.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createSharedAccessToken } from '@topup/providers';
 *
 * const tokens = createSharedAccessToken({
 *   store: await openStore({ dataDir: 'memory://' }),
 *   provider: 'daraja',
 *   issue: () => Promise.resolve({ token: 'abc', expiresInSeconds: 3599 }),
 * });
 * await tokens.renew('abc'); // a new token: 'abc' was refused
 * ```
 */
export function createSharedAccessToken(options: SharedAccessTokenOptions): SharedAccessToken {
  const { store, provider } = options;
  const now = options.now ?? (() => new Date());
  const renewBeforeMs = options.renewBeforeMs ?? 60_000;
  let held: Held | undefined;
  let fetching: Promise<string> | undefined;

  const usable = (token: Held | undefined, refused?: string): token is Held =>
    token !== undefined && token.token !== refused && token.expiresAt - now().getTime() > renewBeforeMs;

  const stored = async (db: Queryable): Promise<Held | undefined> => {
    const { rows } = await db.query<TokenRow>(
      'SELECT token, expires_at FROM provider_access_tokens WHERE provider = $1',
      [provider],
    );
    const row = rows[0];
    return row === undefined ? undefined : { token: row.token, expiresAt: row.expires_at.getTime() };
  };

  const fetchInto = async (db: Queryable, refused: string | undefined): Promise<string> => {
    const found = await stored(db);
    if (usable(found, refused)) {
      held = found;
      return found.token;
    }
    const issued = await options.issue();
    const fetchedAt = now();
    const expiresAt = new Date(fetchedAt.getTime() + issued.expiresInSeconds * 1000);
    await db.query(
      `INSERT INTO provider_access_tokens (provider, token, expires_at, fetched_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (provider) DO UPDATE SET token = $2, expires_at = $3, fetched_at = $4`,
      [provider, issued.token, expiresAt.toISOString(), fetchedAt.toISOString()],
    );
    held = { token: issued.token, expiresAt: expiresAt.getTime() };
    return issued.token;
  };

  // One fetch at a time in this process; across processes, one at a time under the lock.
  const refresh = (refused: string | undefined): Promise<string> => {
    fetching ??= (async () => {
      await providerTablesReady(store);
      if (store.kind === 'pglite') return fetchInto(store, refused);
      return store.transaction(async (tx) => {
        await tx.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`provider_access_tokens:${provider}`]);
        return fetchInto(tx, refused);
      });
    })().finally(() => {
      fetching = undefined;
    });
    return fetching;
  };

  return {
    async current() {
      if (usable(held)) return held.token;
      return refresh(undefined);
    },
    async renew(refused) {
      if (usable(held, refused)) return held.token;
      // A fetch already under way may come back with the very token refused; then one more is needed.
      const token = await (fetching ?? refresh(refused));
      return token === refused ? refresh(refused) : token;
    },
  };
}
