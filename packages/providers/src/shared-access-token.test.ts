import { randomBytes } from 'node:crypto';
import { openStore } from '@topup/ledger';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSharedAccessToken } from './shared-access-token.js';
import type { IssuedToken } from './shared-access-token.js';

// PostgreSQL too when TEST_DATABASE_URL is set, or CI is (where its absence must fail, not skip).
const postgres = process.env.TEST_DATABASE_URL !== undefined || process.env.CI !== undefined;

async function openStores(
  kind: 'pglite' | 'postgres',
): Promise<{ stores: Store[]; dispose(): Promise<void> }> {
  if (kind === 'pglite') {
    const store = await openStore({ dataDir: 'memory://' });
    return { stores: [store], dispose: () => store.close() };
  }
  const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
  const schema = `providers_test_${randomBytes(6).toString('hex')}`;
  const stores = [await openStore({ databaseUrl, schema }), await openStore({ databaseUrl, schema })];
  return {
    stores,
    async dispose() {
      await stores[0]?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await Promise.all(stores.map((store) => store.close()));
    },
  };
}

/** A provider's token endpoint: numbered tokens, each issue invalidating the one before, as Daraja does. */
function tokenIssuer(delayMs = 0) {
  let issued = 0;
  return {
    get issued() {
      return issued;
    },
    issue: async (): Promise<IssuedToken> => {
      issued += 1;
      const token = `token-${String(issued)}`;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return { token, expiresInSeconds: 3599 };
    },
  };
}

describe.each(postgres ? (['pglite', 'postgres'] as const) : (['pglite'] as const))(
  'a shared access token on %s',
  (kind) => {
    let opened: Awaited<ReturnType<typeof openStores>>;
    let store: Store;
    const clock = { at: new Date('2026-11-25T10:00:00Z') };
    const now = () => clock.at;
    let providerCount = 0;
    const nextProvider = () => `provider-${String((providerCount += 1))}`;

    beforeAll(async () => {
      opened = await openStores(kind);
      store = opened.stores[0] as Store;
    }, 60_000);
    afterAll(() => opened.dispose());

    it('fetches a token once and reuses it until a minute before it expires', async () => {
      const issuer = tokenIssuer();
      const tokens = createSharedAccessToken({ store, provider: nextProvider(), issue: issuer.issue, now });
      expect(await tokens.current()).toBe('token-1');
      clock.at = new Date(clock.at.getTime() + 3_500_000);
      expect(await tokens.current()).toBe('token-1');
      clock.at = new Date(clock.at.getTime() + 40_000);
      expect(await tokens.current()).toBe('token-2');
      expect(issuer.issued).toBe(2);
    });

    it('fetches one token for many callers at once', async () => {
      const issuer = tokenIssuer(50);
      const tokens = createSharedAccessToken({ store, provider: nextProvider(), issue: issuer.issue, now });
      const all = await Promise.all(Array.from({ length: 20 }, () => tokens.current()));
      expect(new Set(all)).toEqual(new Set(['token-1']));
      expect(issuer.issued).toBe(1);
    });

    it('takes the token another process fetched when its own is refused, instead of fetching again', async () => {
      const issuer = tokenIssuer();
      const provider = nextProvider();
      const second = opened.stores[1] ?? store;
      const first = createSharedAccessToken({ store, provider, issue: issuer.issue, now });
      const other = createSharedAccessToken({ store: second, provider, issue: issuer.issue, now });
      expect(await first.current()).toBe('token-1');
      // The other process finds token-1 refused (say, by a clock skew) and fetches token-2.
      expect(await other.renew('token-1')).toBe('token-2');
      // Daraja now refuses token-1 to the first process, which takes token-2 from the store.
      expect(await first.renew('token-1')).toBe('token-2');
      expect(issuer.issued).toBe(2);
    });

    it('fetches a new token when the stored one is the one refused', async () => {
      const issuer = tokenIssuer();
      const tokens = createSharedAccessToken({ store, provider: nextProvider(), issue: issuer.issue, now });
      expect(await tokens.current()).toBe('token-1');
      expect(await tokens.renew('token-1')).toBe('token-2');
      expect(await tokens.current()).toBe('token-2');
    });

    it('lets a failed fetch fail its callers and the next call try again', async () => {
      let fail = true;
      const tokens = createSharedAccessToken({
        store,
        provider: nextProvider(),
        issue: () =>
          fail
            ? Promise.reject(new Error('token endpoint down'))
            : Promise.resolve({ token: 'late', expiresInSeconds: 3599 }),
        now,
      });
      await expect(tokens.current()).rejects.toThrow('token endpoint down');
      fail = false;
      expect(await tokens.current()).toBe('late');
    });

    it.runIf(kind === 'postgres')(
      'fetches one token for two processes that both find theirs expired',
      async () => {
        const issuer = tokenIssuer(100);
        const provider = nextProvider();
        const processes = opened.stores.map((each) =>
          createSharedAccessToken({ store: each, provider, issue: issuer.issue, now }),
        );
        const tokens = await Promise.all(
          processes.flatMap((process) => [process.current(), process.current()]),
        );
        expect(new Set(tokens)).toEqual(new Set(['token-1']));
        expect(issuer.issued).toBe(1);
      },
    );
  },
);
