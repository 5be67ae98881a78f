// Benchmark (not a test): float requests per second through the ledger's group commit versus a naive
// one-transaction-per-request baseline, on one hot account and on 1,000 accounts, with 64 concurrent
// callers; on PostgreSQL (DATABASE_URL, in a schema of its own, dropped afterwards) and on PGlite.
// Each case runs BENCH_SECONDS (default 3) seconds, 3 times, the two methods alternating; the medians,
// their ratio and PASS/FAIL against the target (group commit ≥ 10× naive on one hot account, on
// PostgreSQL) are printed. A missed target sets a non-zero exit code.
//
//   pnpm bench:ledger

import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { Account } from '../src/accounts.js';
import { newReference } from '../src/ids.js';
import { createLedger } from '../src/ledger.js';
import type { Ledger } from '../src/ledger.js';
import { systemAccountIds } from '../src/ledger-accounts.js';
import { openStore } from '../src/store.js';
import type { Store } from '../src/store.js';
import { floatRequest } from '../src/testing/requests.js';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const seconds = Number(process.env.BENCH_SECONDS ?? '3');
const runs = 3;
const callers = 64;
// Fewer connections than callers: the database is shared, and on one hot row extra connections only
// queue on its lock. The naive callers wait for a connection; group commit uses one at a time anyway.
const poolSize = 32;
const manyAccounts = 1_000;
const plentyMinor = 1_000_000_000_000n;
const requestShillings = 1;
const targetRatio = 10;

interface Scenario {
  name: string;
  accounts: number;
}

const scenarios: Scenario[] = [
  { name: 'hot account', accounts: 1 },
  { name: `${manyAccounts} accounts`, accounts: manyAccounts },
];

type Method = (accountIndex: number) => Promise<boolean>;

interface Row {
  store: string;
  scenario: string;
  grouped: number[];
  naive: number[];
}

/** 64 callers issue requests back to back for `seconds`; returns accepted requests per second. */
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

async function setUpAccounts(ledger: Ledger, count: number): Promise<Account[]> {
  const accounts: Account[] = [];
  for (let index = 0; index < count; index += 1) {
    const account = await ledger.createAccount({ name: `Bench ${index}` });
    await ledger.fund(account.id, 'float', plentyMinor);
    accounts.push(account);
  }
  return accounts;
}

async function floatLedgerIds(store: Store, accounts: readonly Account[]): Promise<string[]> {
  const { rows } = await store.query<{ account_id: string; id: string }>(
    `SELECT account_id, id FROM ledger_accounts WHERE channel = 'float' AND account_id = ANY($1::text[])`,
    [accounts.map((account) => account.id)],
  );
  const byAccount = new Map(rows.map((row) => [row.account_id, row.id]));
  return accounts.map((account) => {
    const id = byAccount.get(account.id);
    if (id === undefined) throw new Error(`Expected a float channel for ${account.id}, found none.`);
    return id;
  });
}

/**
 * The baseline: what one float request costs without batching, each in its own database transaction.
 * The channel row is locked, checked and debited by one conditional UPDATE; then the transaction row
 * and its pending transfer are inserted, and the network account's side of the posting is credited
 * last, so its row (shared by every caller) is held only until COMMIT. Every row the ledger writes
 * for such a request is written. Left out, in the baseline's favour: the ledger's reads of the
 * caller's profile (taken from memory here) and of its contacts.
 */
function naive(store: Store, accounts: readonly Account[], ledgerIds: readonly string[]): Method {
  const amountMinor = String(requestShillings * 100);
  const request = floatRequest({ amount: requestShillings });
  const networkId = systemAccountIds.network[request.network].toString();
  return (accountIndex) =>
    store.transaction(async (tx) => {
      const sender = accounts[accountIndex] as Account;
      const ledgerId = ledgerIds[accountIndex] as string;
      const { rows } = await tx.query(
        `UPDATE ledger_accounts SET debits_pending = debits_pending + $2
         WHERE id = $1 AND credits_posted - debits_posted - debits_pending >= $2 RETURNING id`,
        [ledgerId, amountMinor],
      );
      if (rows.length === 0) return false;
      const reference = newReference();
      await tx.query(
        `INSERT INTO transactions (reference, account_id, type, amount_minor, currency, country, network,
           recipient_mobile, recipient_agent_number, recipient_store_number, sender_name, sender_mobile,
           sender_email, sender_agent_name, sender_agent_number, sender_store_number, created_at)
         VALUES ($1, $2, 'Agent Float', $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, now())`,
        [
          reference,
          sender.id,
          amountMinor,
          request.currency,
          request.country,
          request.network,
          request.mobile,
          request.agent_number ?? '',
          request.store_number ?? '',
          sender.name,
          sender.mobile,
          sender.email,
          sender.agent_name,
          sender.agent_number,
          sender.store_number,
        ],
      );
      await tx.query(
        `INSERT INTO transfers (debit_account_id, credit_account_id, amount, kind, purpose, reference, created_at)
         VALUES ($1, $2, $3, 'pending', 'float', $4, now())`,
        [ledgerId, networkId, amountMinor, reference],
      );
      await tx.query(`UPDATE ledger_accounts SET credits_pending = credits_pending + $2 WHERE id = $1`, [
        networkId,
        amountMinor,
      ]);
      return true;
    });
}

function groupCommit(ledger: Ledger, accounts: readonly Account[]): Method {
  return async (accountIndex) => {
    const outcome = await ledger.requestAgentFloat({
      accountId: (accounts[accountIndex] as Account).id,
      request: floatRequest({ amount: requestShillings }),
    });
    return outcome.kind === 'created';
  };
}

async function benchStore(label: string, store: Store): Promise<Row[]> {
  const ledger = createLedger(store);
  const rows: Row[] = [];
  for (const scenario of scenarios) {
    const accounts = await setUpAccounts(ledger, scenario.accounts);
    const ledgerIds = await floatLedgerIds(store, accounts);
    const row: Row = { store: label, scenario: scenario.name, grouped: [], naive: [] };
    for (let run = 0; run < runs; run += 1) {
      row.grouped.push(await measure(groupCommit(ledger, accounts), scenario.accounts));
      row.naive.push(await measure(naive(store, accounts, ledgerIds), scenario.accounts));
    }
    console.log(`  measured ${label} / ${scenario.name}`);
    rows.push(row);
  }
  const report = await ledger.verify();
  if (!report.ok)
    throw new Error(`Expected a clean ledger after the ${label} runs: ${report.breaches.join('; ')}`);
  await ledger.close();
  return rows;
}

function printTable(rows: readonly Row[]): void {
  const perSecond = (value: number) => value.toFixed(0).padStart(8);
  const list = (values: readonly number[]) => values.map((value) => value.toFixed(0)).join(', ');
  console.log(
    `\n${'store'.padEnd(9)} ${'scenario'.padEnd(14)} ${'group/s'.padStart(8)} ${'naive/s'.padStart(8)}  ratio   runs (group | naive)`,
  );
  for (const row of rows) {
    const [grouped, baseline] = [median(row.grouped), median(row.naive)];
    console.log(
      `${row.store.padEnd(9)} ${row.scenario.padEnd(14)} ${perSecond(grouped)} ${perSecond(baseline)}  ` +
        `${(grouped / baseline).toFixed(1).padStart(5)}×  ${list(row.grouped)} | ${list(row.naive)}`,
    );
  }
}

function judge(rows: readonly Row[]): boolean {
  const hot = rows.find((row) => row.store === 'postgres' && row.scenario === 'hot account');
  if (hot === undefined) throw new Error('Expected a PostgreSQL hot-account result, found none.');
  const ratio = median(hot.grouped) / median(hot.naive);
  const pass = ratio >= targetRatio;
  console.log(
    `\ntarget: group commit ≥ ${targetRatio}× naive on one hot account on PostgreSQL: ` +
      `${pass ? 'PASS' : 'FAIL'} (${ratio.toFixed(1)}×)`,
  );
  return pass;
}

async function main(): Promise<void> {
  console.log(
    `${callers} concurrent callers, pool of ${poolSize}, ${seconds} s per run, ${runs} runs per case, medians shown.`,
  );
  const rows: Row[] = [];
  const schema = `ledger_bench_${randomBytes(6).toString('hex')}`;
  const postgres = await openStore({ databaseUrl, schema, poolSize });
  try {
    rows.push(...(await benchStore('postgres', postgres)));
  } finally {
    await postgres.close();
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  }
  const pglite = await openStore({ dataDir: 'memory://' });
  try {
    rows.push(...(await benchStore('pglite', pglite)));
  } finally {
    await pglite.close();
  }
  printTable(rows);
  if (!judge(rows)) process.exitCode = 1;
}

await main();
