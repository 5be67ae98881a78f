// The listing case, on PostgreSQL: one caller with a million transactions (a smoke run: ten thousand) and
// a posting on its Agent Float channel for each of its float transactions, seeded straight into a fresh
// schema with INSERT … SELECT generate_series, then `pnpm start:server` against it. Requests go one at a
// time, so each time is a page's own cost, not a queue's:
//
// - filtered: `list_transactions` by type, state and a one-week date range, each request a different week;
// - walk: `list_transactions` by type and state, following `next_cursor` page after page;
// - mobile: `list_transactions` by a recipient's mobile alone, read from the mobile indexes;
// - statement: `list_statement` of the Agent Float channel: the first page, pages ending at dates spread
//   over its history (whose balances sum every posting newer than the page), and the page after each of
//   those by its cursor.
//
// Each kind reports p50 and p95. There is no target: the case fails the bench only when the harness
// breaks (an answer that is not 0000), never on speed.

import pg from 'pg';
import type { BenchOptions } from './bench-options.js';
import { createBenchCaller } from './bench-caller.js';
import { postgresBenchStore } from './bench-store.js';
import type { CaseResult } from './case-result.js';
import type { LoadSample } from './load-run.js';
import { serverResidentBytes } from './server-memory.js';
import { serviceEnvironment } from './service-environment.js';
import { startServiceProcess } from './service-process.js';
import { percentile } from './statistics.js';

export const listingCaseId = 'listing-pg';
export const listingCaseTitle = 'list_transactions and list_statement over a million transactions';

/** Seconds between two seeded transactions: a million of them span about eleven months. */
const secondsApart = 30;
const dayMs = 24 * 60 * 60 * 1000;

/**
 * Seeds `count` transactions of `accountId`, newest now: a third Agent Float and two thirds Airtime; a
 * tenth requested, a fifth cancelled, the rest completed (type and state vary independently). Each float
 * one completed has its posting on the Agent Float channel, whose balance (funded by the bench caller)
 * is moved to match, so the statement's balances chain to it.
 */
async function seedTransactions(database: pg.Client, accountId: string, count: number): Promise<number> {
  await database.query(
    `INSERT INTO transactions (reference, account_id, type, state, amount_minor, currency, country, network,
       note, recipient_name, recipient_mobile, payment_network, payment_name, payment_mobile, payment_email,
       sender_name, sender_mobile, sender_email, sender_agent_name, sender_agent_number, sender_store_number,
       created_at, submitted_at, resolved_at)
     SELECT 'TXBENCH' || lpad(g::text, 8, '0'), $1,
       CASE WHEN g % 3 = 0 THEN 'Agent Float' ELSE 'Airtime' END,
       CASE WHEN g % 10 = 0 THEN 'requested' WHEN g % 10 IN (1, 2) THEN 'cancelled' ELSE 'completed' END,
       (100 + g % 900) * 100, 'KES', 'KE',
       CASE WHEN g % 3 = 0 THEN 'MoneyNetA' ELSE 'CarrierB' END,
       'bench order ' || g, 'Recipient ' || g % 1000, '2547330' || lpad((g % 100000)::text, 5, '0'),
       CASE WHEN g % 3 = 0 THEN NULL ELSE 'MoneyNetB' END,
       CASE WHEN g % 3 = 0 THEN NULL ELSE 'Payer' END,
       CASE WHEN g % 3 = 0 THEN NULL ELSE '2547220' || lpad((g % 1000)::text, 5, '0') END,
       CASE WHEN g % 3 = 0 THEN NULL ELSE '' END,
       'Bench Agencies', '254700000100', 'ops@bench.example', 'Bench Till', '100100', '200200',
       now() - ($2::int - g) * make_interval(secs => $3), now() - ($2::int - g) * make_interval(secs => $3),
       CASE WHEN g % 10 = 0 THEN NULL ELSE now() - ($2::int - g) * make_interval(secs => $3) END
     FROM generate_series(1, $2::int) AS g`,
    [accountId, count, secondsApart],
  );
  const { rows } = await database.query<{ id: string }>(
    `SELECT id::text AS id FROM ledger_accounts WHERE account_id = $1 AND channel = 'float'`,
    [accountId],
  );
  const channel = rows[0]?.id;
  if (channel === undefined) throw new Error(`Expected an Agent Float channel for ${accountId}.`);
  const { rows: posted } = await database.query<{ postings: number }>(
    `WITH posted AS (
       INSERT INTO transfers (debit_account_id, credit_account_id, amount, kind, purpose, reference, created_at)
       SELECT $1::bigint, 2, amount_minor, 'single', 'float', reference, resolved_at
       FROM transactions WHERE account_id = $2 AND type = 'Agent Float' AND state = 'completed'
       ORDER BY resolved_at
       RETURNING amount
     )
     UPDATE ledger_accounts SET debits_posted = debits_posted + (SELECT sum(amount) FROM posted)
     WHERE id = $1::bigint
     RETURNING (SELECT count(*) FROM posted)::int AS postings`,
    [channel, accountId],
  );
  // As autovacuum leaves a table that has grown over months: statistics read, and the visibility map set,
  // so a statement's sums stay within the index instead of visiting every row they count.
  await database.query('VACUUM (ANALYZE) transactions, transfers');
  return posted[0]?.postings ?? 0;
}

interface Sampled {
  readonly times: number[];
  errors: number;
}

/** Posts `body` to `/api/<name>` and returns the envelope's data, timing it into `sampled`. */
async function timedCall(
  url: string,
  token: string,
  name: string,
  body: Readonly<Record<string, string>>,
  sampled: Sampled,
): Promise<Record<string, unknown>> {
  const started = performance.now();
  const response = await fetch(`${url}/api/${name}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { status: { code: string }; data: Record<string, unknown> };
  sampled.times.push(performance.now() - started);
  if (envelope.status.code !== '0000') {
    sampled.errors += 1;
    process.stderr.write(
      `${listingCaseId}: ${name} ${JSON.stringify(body)} answered ${JSON.stringify(envelope)}\n`,
    );
  }
  return envelope.data;
}

/** The answer's `next_cursor`: empty on the last page. */
function nextCursorOf(data: Record<string, unknown>): string {
  return typeof data.next_cursor === 'string' ? data.next_cursor : '';
}

function summary(sampled: Sampled): { p50Ms: number; p95Ms: number; requests: number } {
  return {
    p50Ms: percentile(sampled.times, 50),
    p95Ms: percentile(sampled.times, 95),
    requests: sampled.times.length,
  };
}

function sampleOf(sampled: Sampled, seconds: number): LoadSample {
  return {
    requestsPerSecond: sampled.times.length / seconds,
    p50Ms: percentile(sampled.times, 50),
    p99Ms: percentile(sampled.times, 99),
    p95Ms: percentile(sampled.times, 95),
    errors: sampled.errors,
    succeeded: sampled.times.length - sampled.errors,
    statusCodes: {},
  };
}

/** Runs the listing case from a clean schema to a stopped server. */
export async function runListingCase(options: BenchOptions): Promise<CaseResult> {
  const transactions = options.smoke ? 10_000 : 1_000_000;
  const requests = options.smoke ? 20 : 200;
  const store = postgresBenchStore(options.databaseUrl);
  const database = new pg.Client({
    connectionString: options.databaseUrl,
    options: `-c search_path=${store.env.DATABASE_SCHEMA ?? 'public'}`,
  });
  try {
    const opened = await store.open();
    const caller = await createBenchCaller(opened).finally(() => opened.close());
    await database.connect();
    const seedStarted = performance.now();
    const postings = await seedTransactions(database, caller.accountId, transactions);
    const seedSeconds = (performance.now() - seedStarted) / 1000;
    const server = await startServiceProcess(
      'server',
      { ...serviceEnvironment, ...store.env },
      {
        cpuProfileDir: options.cpuProfileDir,
      },
    );
    try {
      const call = (name: string, body: Readonly<Record<string, string>>, sampled: Sampled) =>
        timedCall(server.url, caller.token, name, body, sampled);
      const started = performance.now();
      const filtered: Sampled = { times: [], errors: 0 };
      const spanDays = (transactions * secondsApart * 1000) / dayMs;
      for (let request = 0; request < requests; request += 1) {
        const weeksBack = (request * 7) % Math.max(7, Math.floor(spanDays - 7));
        const to = new Date(Date.now() - weeksBack * dayMs);
        await call(
          'list_transactions',
          {
            type: request % 2 === 0 ? 'Airtime' : 'Agent Float',
            state: request % 3 === 0 ? 'cancelled' : 'completed',
            from: new Date(to.getTime() - 7 * dayMs).toISOString(),
            to: to.toISOString(),
            limit: '50',
          },
          filtered,
        );
      }
      const walk: Sampled = { times: [], errors: 0 };
      let cursor = '';
      for (let page = 0; page < requests; page += 1) {
        const data = await call(
          'list_transactions',
          { type: 'Airtime', state: 'completed', limit: '100', ...(cursor === '' ? {} : { cursor }) },
          walk,
        );
        cursor = nextCursorOf(data);
        if (cursor === '') break;
      }
      // A recipient's mobile, each seeded one on one transaction in every 100,000: before migration 0012
      // the filter read the caller's whole history back to fill the page.
      const byMobile: Sampled = { times: [], errors: 0 };
      for (let request = 0; request < requests / 10; request += 1) {
        const mobile = `2547330${String((request * 7919) % 100_000).padStart(5, '0')}`;
        await call('list_transactions', { mobile, limit: '50' }, byMobile);
      }
      const statement: Sampled = { times: [], errors: 0 };
      let next = '';
      for (let request = 0; request < requests; request += 1) {
        // In turn: a page ending at a date spread over the history (every fourth, the first page), then
        // the page after it by its cursor.
        const daysBack = ((request % 97) / 97) * spanDays;
        const bound = request % 8 === 0 ? {} : { to: new Date(Date.now() - daysBack * dayMs).toISOString() };
        const data = await call(
          'list_statement',
          {
            channel: 'Agent Float',
            limit: '50',
            ...(request % 2 === 1 && next !== '' ? { cursor: next } : bound),
          },
          statement,
        );
        next = nextCursorOf(data);
      }
      const seconds = (performance.now() - started) / 1000;
      const all: Sampled = {
        times: [...filtered.times, ...walk.times, ...byMobile.times, ...statement.times],
        errors: filtered.errors + walk.errors + byMobile.errors + statement.errors,
      };
      const kinds = {
        filtered: summary(filtered),
        walk: summary(walk),
        mobile: summary(byMobile),
        statement: summary(statement),
      };
      const figure = (kind: { p50Ms: number; p95Ms: number; requests: number }) =>
        `p50 ${kind.p50Ms.toFixed(1)} ms, p95 ${kind.p95Ms.toFixed(1)} ms (${kind.requests} requests)`;
      return {
        id: listingCaseId,
        title: listingCaseTitle,
        // One request at a time, so a rate of pages, not a load the baseline could be compared with.
        unit: 'pages/s',
        perSecond: all.times.length / seconds,
        p50Ms: percentile(all.times, 50),
        p99Ms: percentile(all.times, 99),
        errors: all.errors,
        serverRssBytes: await serverResidentBytes(server.url),
        runs: [sampleOf(all, seconds)],
        details: { transactions, postings, seedSeconds, ...kinds },
        note:
          `${listingCaseId} (no target): ${transactions.toLocaleString('en-GB')} transactions and ` +
          `${postings.toLocaleString('en-GB')} postings of one caller, one request at a time. ` +
          `list_transactions by type, state and a week: ${figure(kinds.filtered)}; walking pages of 100 ` +
          `by type and state: ${figure(kinds.walk)}; by a recipient's mobile alone: ` +
          `${figure(kinds.mobile)}; list_statement pages of 50 across the history: ` +
          `${figure(kinds.statement)}.`,
      };
    } finally {
      await server.stop();
    }
  } finally {
    await database.end().catch(() => undefined);
    await store.remove();
  }
}
