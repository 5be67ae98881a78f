// Benchmark (not a test): float transfers per second through the ledger's group commit versus a naive
// one-transaction-per-request baseline, on one hot account and on 1,000 accounts, with 64 concurrent
// callers; on PostgreSQL (DATABASE_URL, in a schema of its own, dropped afterwards) and on PGlite.
// Each case runs BENCH_SECONDS (default 3) seconds, 3 times; the medians and their ratio are printed.
//
//   pnpm bench:ledger

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createLedger } from '../src/ledger.js';
import type { Ledger } from '../src/ledger.js';
import { openStore } from '../src/store.js';
import type { Store } from '../src/store.js';
import { floatRequest } from '../src/testing/requests.js';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? '3');
const runs = 3;
const callers = 64;
const manyAccounts = 1_000;
const plentyMinor = 1_000_000_000_000n;
const networkAccountId = '2'; // system:network:MoneyNetA

interface Scenario {
  name: string;
  accounts: number;
}

const scenarios: Scenario[] = [
  { name: 'hot account', accounts: 1 },
  { name: `${manyAccounts} accounts`, accounts: manyAccounts },
];

type Method = (accountIndex: number) => Promise<boolean>;

/** 64 callers issue requests back to back for `seconds`; returns accepted transfers per second. */
async function measure(method: Method, accounts: number): Promise<number> {
  const deadline = Date.now() + seconds * 1000;
  const started = performance.now();
  let accepted = 0;
  await Promise.all(
    Array.from({ length: callers }, async (_, caller) => {
      let turn = caller;
      while (Date.now() < deadline) {
        if (await method(turn % accounts)) accepted += 1;
        turn += callers;
      }
    }),
  );
  return accepted / ((performance.now() - started) / 1000);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function setUpAccounts(ledger: Ledger, count: number): Promise<{ ids: string[]; ledgerIds: string[] }> {
  const ids: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const account = await ledger.createAccount({ name: `Bench ${index}` });
    await ledger.fund(account.id, 'float', plentyMinor);
    ids.push(account.id);
  }
  return { ids, ledgerIds: [] };
}

async function floatLedgerIds(store: Store, accountIds: readonly string[]): Promise<string[]> {
  const { rows } = await store.query<{ account_id: string; id: string }>(
    `SELECT account_id, id FROM ledger_accounts WHERE channel = 'float' AND account_id = ANY($1::text[])`,
    [accountIds],
  );
  const byAccount = new Map(rows.map((row) => [row.account_id, row.id]));
  return accountIds.map((id) => byAccount.get(id) ?? '');
}

/** The baseline: BEGIN; UPDATE the account where available ≥ amount; INSERT the transfer; COMMIT. */
function naive(store: Store, ledgerIds: readonly string[]): Method {
  return (accountIndex) =>
    store.transaction(async (tx) => {
      const ledgerId = ledgerIds[accountIndex] ?? '';
      const { rows } = await tx.query(
        `UPDATE ledger_accounts SET debits_pending = debits_pending + $2
         WHERE id = $1 AND credits_posted - debits_posted - debits_pending >= $2 RETURNING id`,
        [ledgerId, '100'],
      );
      if (rows.length === 0) return false;
      await tx.query(
        `INSERT INTO transfers (debit_account_id, credit_account_id, amount, kind, purpose, created_at)
         VALUES ($1, $2, $3, 'pending', 'float', now())`,
        [ledgerId, networkAccountId, '100'],
      );
      return true;
    });
}

function groupCommit(ledger: Ledger, accountIds: readonly string[]): Method {
  return async (accountIndex) => {
    const outcome = await ledger.requestAgentFloat({
      accountId: accountIds[accountIndex] ?? '',
      request: floatRequest({ amount: 1 }),
    });
    return outcome.kind === 'created';
  };
}

async function benchStore(label: string, store: Store): Promise<void> {
  const ledger = createLedger(store);
  for (const scenario of scenarios) {
    const { ids } = await setUpAccounts(ledger, scenario.accounts);
    const ledgerIds = await floatLedgerIds(store, ids);
    const grouped: number[] = [];
    const baseline: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      grouped.push(await measure(groupCommit(ledger, ids), scenario.accounts));
      baseline.push(await measure(naive(store, ledgerIds), scenario.accounts));
    }
    const [g, b] = [median(grouped), median(baseline)];
    console.log(
      `${label.padEnd(10)} ${scenario.name.padEnd(14)} group commit ${g.toFixed(0).padStart(7)}/s   ` +
        `naive ${b.toFixed(0).padStart(7)}/s   ratio ${(g / b).toFixed(1)}×   ` +
        `(runs: ${grouped.map((v) => v.toFixed(0)).join(', ')} | ${baseline.map((v) => v.toFixed(0)).join(', ')})`,
    );
  }
  await ledger.close();
}

async function main(): Promise<void> {
  console.log(`${callers} concurrent callers, ${seconds} s per run, ${runs} runs per case, medians shown.`);
  const schema = `ledger_bench_${randomBytes(6).toString('hex')}`;
  const postgres = await openStore({ databaseUrl, schema, poolSize: callers });
  try {
    await benchStore('postgres', postgres);
  } finally {
    await postgres.close();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
  const pglite = await openStore({ dataDir: 'memory://' });
  try {
    await benchStore('pglite', pglite);
  } finally {
    await pglite.close();
  }
}

await main();
