// Two submitters of the same money call at the same moment (two workers, or the server and a worker
// resuming it), each with its own provider instance over the same database: every call Daraja and Africa's
// Talking cannot deduplicate is claimed in the store before it is made, so exactly one HTTP call reaches
// the fake, whatever the timing. On PGlite (one process) and on PostgreSQL (two connection pools, as two
// processes would have) when TEST_DATABASE_URL is set.

import { randomBytes, randomInt } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createLedger, legId, openStore } from '@topup/ledger';
import type { Ledger, Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAfricasTalkingProvider } from './africastalking/africastalking-provider.js';
import { createDarajaProvider } from './daraja/daraja-provider.js';
import { securityCredential } from './daraja/security-credential.js';
import { startFakeAfricasTalking, type FakeAfricasTalking } from './fakes/fake-africastalking.js';
import { startFakeDaraja, type FakeDaraja } from './fakes/fake-daraja.js';
import type { Provider, SubmitResult } from './provider.js';
import { migrateProviders } from './provider-migrations.js';
import { requestAirtime, requestFloat } from './testing/recorded-transactions.js';

// PostgreSQL too when TEST_DATABASE_URL is set, or CI is (where its absence must fail, not skip).
const postgres = process.env.TEST_DATABASE_URL !== undefined || process.env.CI !== undefined;

/** Two stores on the same data: one PGlite shared, or two PostgreSQL pools on one schema. */
async function openStores(
  kind: 'pglite' | 'postgres',
): Promise<{ stores: [Store, Store]; dispose(): Promise<void> }> {
  if (kind === 'pglite') {
    const store = await openStore({ dataDir: 'memory://' });
    return { stores: [store, store], dispose: () => store.close() };
  }
  const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
  const schema = `providers_claims_${randomBytes(6).toString('hex')}`;
  const first = await openStore({ databaseUrl, schema });
  const second = await openStore({ databaseUrl, schema });
  return {
    stores: [first, second],
    async dispose() {
      await first.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await Promise.all([first.close(), second.close()]);
    },
  };
}

const darajaApp = {
  consumerKey: 'key',
  consumerSecret: 'secret',
  shortCode: '600992',
  passkey: 'passkey',
  initiatorName: 'testapi',
  initiatorPassword: 'Safaricom999!*!',
};
const atAccount = { username: 'topup', apiKey: 'at-key' };
const certificate = readFileSync(
  new URL('./fakes/fixtures/fake-daraja-certificate.pem', import.meta.url),
  'utf8',
);

/** A number no other test sends to, so AT's five-minute duplicate guard never meets it. */
const freshMobile = () => `2547${String(randomInt(10_000_000, 99_999_999))}`.replace(/\d{4}$/, '2468');

describe.each(postgres ? (['pglite', 'postgres'] as const) : (['pglite'] as const))(
  'two submitters of one money call at once, on %s',
  (kind) => {
    let opened: Awaited<ReturnType<typeof openStores>>;
    let ledger: Ledger;
    let accountId: string;
    let daraja: FakeDaraja;
    let africasTalking: FakeAfricasTalking;
    let darajas: [Provider, Provider];
    let carriers: [Provider, Provider];

    beforeAll(async () => {
      opened = await openStores(kind);
      const [first, second] = opened.stores;
      await migrateProviders(first);
      ledger = createLedger(first);
      accountId = (await ledger.createAccount({ name: 'Duka Ltd' })).id;
      await ledger.fund(accountId, 'float', 10_000_000n);
      await ledger.fund(accountId, 'airtime', 10_000_000n);
      // Slow enough that both submitters are in flight before either is answered.
      daraja = await startFakeDaraja({ ...darajaApp, promptMs: 5_000 });
      africasTalking = await startFakeAfricasTalking({ ...atAccount, deliveryMs: 5_000 });
      const darajaOver = (store: Store) =>
        createDarajaProvider({
          store,
          endpoint: { baseUrl: daraja.url, timeoutMs: 3_000 },
          credentials: { consumerKey: darajaApp.consumerKey, consumerSecret: darajaApp.consumerSecret },
          shortCode: darajaApp.shortCode,
          initiatorName: darajaApp.initiatorName,
          securityCredential: securityCredential(darajaApp.initiatorPassword, certificate),
          b2bCommandId: 'BusinessBuyGoods',
          webhookUrl: 'http://127.0.0.1:9/providers/daraja/token',
          stk: { passkey: darajaApp.passkey, transactionType: 'CustomerPayBillOnline', partyB: '600992' },
        });
      const carrierOver = (store: Store) =>
        createAfricasTalkingProvider({ store, baseUrl: africasTalking.url, ...atAccount, timeoutMs: 3_000 });
      darajas = [darajaOver(first), darajaOver(second)];
      carriers = [carrierOver(first), carrierOver(second)];
    }, 60_000);
    afterAll(async () => {
      await daraja.close();
      await africasTalking.close();
      await ledger.close();
      await opened.dispose();
    });

    /** Both submitters at once: one is accepted, the other told the call is claimed, its outcome unknown. */
    function expectOneCaller(answers: readonly SubmitResult[]): void {
      const accepted = answers.filter((answer) => answer.kind === 'accepted');
      const claimed = answers.filter(
        (answer) => answer.kind === 'unavailable' && /claimed already/.test(answer.reason),
      );
      expect(accepted.length + claimed.length).toBe(2);
      expect(accepted.length).toBeGreaterThanOrEqual(1);
      for (const answer of claimed) expect(answer).not.toHaveProperty('taken');
    }

    const calls = (
      fake: { requests: readonly { path: string; body: unknown }[] },
      path: string,
      has: string,
    ) =>
      fake.requests.filter((request) => request.path === path && JSON.stringify(request.body).includes(has));

    it('makes one B2B payment of a float', async () => {
      const float = await requestFloat(ledger, accountId, '254712300001');
      expectOneCaller(await Promise.all(darajas.map((provider) => provider.submit(float))));
      expect(calls(daraja, '/mpesa/b2b/v1/paymentrequest', `Float ${float.reference}`)).toHaveLength(1);
    });

    it('prompts the payer once for a purchase', async () => {
      const purchase = await requestAirtime(ledger, accountId, '254711082300', '254708372468');
      expectOneCaller(await Promise.all(darajas.map((provider) => provider.submit(purchase))));
      expect(calls(daraja, '/mpesa/stkpush/v1/processrequest', purchase.reference.slice(-12))).toHaveLength(
        1,
      );
    });

    it('reverses a payment once', async () => {
      const purchase = await requestAirtime(ledger, accountId, '254711082300', '254708372468');
      const receipt = `TK${randomBytes(4).toString('hex').toUpperCase()}`;
      const order = {
        id: legId(purchase.reference, 'refund'),
        kind: 'refund',
        transaction: purchase,
        paymentReference: receipt,
      } as const;
      expectOneCaller(
        await Promise.all(
          darajas.map((provider) => provider.submitLeg?.(order) ?? Promise.reject(new Error('no legs'))),
        ),
      );
      expect(calls(daraja, '/mpesa/reversal/v1/request', receipt)).toHaveLength(1);
    });

    it('sends a purchase’s airtime once', async () => {
      const purchase = await requestAirtime(ledger, accountId, freshMobile(), '254708374149');
      const order = {
        id: legId(purchase.reference, 'delivery'),
        kind: 'delivery',
        transaction: purchase,
        paymentReference: 'TK00000001',
      } as const;
      expectOneCaller(
        await Promise.all(
          carriers.map((provider) => provider.submitLeg?.(order) ?? Promise.reject(new Error('no legs'))),
        ),
      );
      const sends = africasTalking.requests.filter(
        (request) => request.path === '/version1/airtime/send' && request.headers.idempotencyKey === order.id,
      );
      expect(sends).toHaveLength(1);
    });
  },
);
