import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { applyMigrations } from './migrate.js';
import { migrations } from './migrations.js';
import { openStore, type Store } from './store.js';
import { testStoreKinds, type StoreKind } from './testing/stores.js';

describe('the migrations', () => {
  it('have ids of the form NNNN_name', () => {
    expect(
      migrations.map((migration) => migration.id).filter((id) => !/^\d{4}_[a-z0-9_]+$/.test(id)),
    ).toEqual([]);
  });

  it('have unique ids whose numbers strictly ascend in the order they apply', () => {
    const ids = migrations.map((migration) => migration.id);
    expect(new Set(ids).size).toBe(ids.length);
    const numbers = ids.map((id) => Number(id.slice(0, 4)));
    // Two branches each adding "0003_…" would give unique ids but one number twice: refused too.
    expect(numbers).toEqual([...new Set(numbers)].sort((a, b) => a - b));
    expect(ids).toEqual([...ids].sort());
  });

  it('each have at least one statement', () => {
    expect(migrations.filter((migration) => migration.statements.length === 0)).toEqual([]);
  });
});

/** A store with no migration applied, and how to be rid of it. */
async function unmigratedStore(kind: StoreKind): Promise<{ store: Store; dispose: () => Promise<void> }> {
  if (kind === 'pglite') {
    const store = await openStore({ dataDir: 'memory://', migrate: false });
    return { store, dispose: () => store.close() };
  }
  const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
  const schema = `ledger_upgrade_${randomBytes(6).toString('hex')}`;
  const store = await openStore({ databaseUrl, schema, poolSize: 2, migrate: false });
  return {
    store,
    async dispose() {
      await store.close();
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

describe.each(testStoreKinds())('0009_airtime_from_balance upgrading a ledger on %s', (kind) => {
  const upgrade = migrations.findIndex((migration) => migration.id === '0009_airtime_from_balance');

  /** Inserts a transaction of `type`, with a payer when `payer` says so. */
  const insert = (store: Store, reference: string, type: 'Agent Float' | 'Airtime', payer: boolean) =>
    store.query(
      `INSERT INTO transactions (reference, account_id, type, amount_minor, currency, country, network,
         recipient_mobile, payment_network, payment_mobile, sender_name, sender_mobile, sender_email,
         sender_agent_name, sender_agent_number, sender_store_number, created_at)
       VALUES ($1, 'acct_upgrade', $2, 5000, 'KES', 'KE', $3, '254733123456', $4, $5, 'Upgrade Ltd', '', '', '',
         '', '', now())`,
      [
        reference,
        type,
        type === 'Airtime' ? 'CarrierB' : 'MoneyNetA',
        payer ? 'MoneyNetB' : null,
        payer ? '254711222333' : null,
      ],
    );

  it('keeps every row, lets airtime go without a payer, and still refuses a payer on anything else', async () => {
    expect(upgrade).toBeGreaterThan(0);
    const { store, dispose } = await unmigratedStore(kind);
    try {
      await applyMigrations(store, migrations.slice(0, upgrade));
      await store.query(
        `INSERT INTO accounts (id, name, created_at, updated_at) VALUES ('acct_upgrade', 'Upgrade Ltd', now(), now())`,
      );
      await insert(store, 'TXPURCHASE0001', 'Airtime', true);
      await insert(store, 'TXFLOAT0000001', 'Agent Float', false);
      // Before it, every airtime transaction had to have a payer.
      await expect(insert(store, 'TXSENT00000001', 'Airtime', false)).rejects.toThrow(/check constraint/);

      await expect(applyMigrations(store, migrations)).resolves.toEqual({
        applied: migrations.slice(upgrade).map((migration) => migration.id),
      });
      await insert(store, 'TXSENT00000001', 'Airtime', false);
      await store.query(
        `UPDATE transactions SET send_reference = reference, send_position = 0 WHERE reference = 'TXSENT00000001'`,
      );
      await expect(insert(store, 'TXFLOAT0000002', 'Agent Float', true)).rejects.toThrow(
        /transactions_payer_only_for_airtime/,
      );
      const { rows } = await store.query<{
        reference: string;
        payment_network: string | null;
        send_reference: string | null;
        send_position: number | null;
      }>(
        'SELECT reference, payment_network, send_reference, send_position FROM transactions ORDER BY reference',
      );
      expect(rows).toEqual([
        { reference: 'TXFLOAT0000001', payment_network: null, send_reference: null, send_position: null },
        {
          reference: 'TXPURCHASE0001',
          payment_network: 'MoneyNetB',
          send_reference: null,
          send_position: null,
        },
        {
          reference: 'TXSENT00000001',
          payment_network: null,
          send_reference: 'TXSENT00000001',
          send_position: 0,
        },
      ]);
      const { rows: checks } = await store.query<{ name: string }>(
        `SELECT conname AS name FROM pg_constraint
         WHERE conrelid = 'transactions'::regclass AND contype = 'c'
           AND pg_get_constraintdef(oid) LIKE '%payment_network%'`,
      );
      expect(checks).toEqual([{ name: 'transactions_payer_only_for_airtime' }]);
    } finally {
      await dispose();
    }
  }, 60_000);
});
