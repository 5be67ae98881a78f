// Fault 2: PostgreSQL cut off in the middle of load, through a TCP proxy between the service processes and
// the database (the shared database itself is never stopped), in both ways a database goes away: its
// connections closed ('close'), or silent and held open ('black hole', where only the service's own time
// limits can answer). While cut: every request is answered 9000 with HTTP 503 within 5 s, none hangs,
// /readyz fails within 2 s, the worker's /metrics still answers, and neither process crashes. Once the
// database is back, the server and the worker resume by themselves within 5 s of that moment, and nothing
// was left half-written: a request answered 9000 may have happened (its batch's COMMIT was in doubt), and
// a retry with its key says so, so in the end the money moved is exactly the requests answered 0000.

import { setTimeout as sleep } from 'node:timers/promises';
import { createLedger } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from '../testing/callback-sink.js';
import type { CallbackSink } from '../testing/callback-sink.js';
import { startService, startWorkerProcess } from '../testing/child-process.js';
import type { RunningChild } from '../testing/child-process.js';
import { eventually } from '../testing/eventually.js';
import { postUntilAnswered } from '../testing/keyed-retries.js';
import { openPostgresSchema, postgresTestUrl } from '../testing/postgres-schema.js';
import type { PostgresSchema } from '../testing/postgres-schema.js';
import { startTcpProxy } from '../testing/tcp-proxy.js';
import type { CutMode, TcpProxy } from '../testing/tcp-proxy.js';

const databaseUrl = postgresTestUrl();
const CLIENTS = 16;
/**
 * Longer than two store deadlines (4 s each), so that in a black hole a caller's request in flight at the
 * cut and its next one, sent into the outage, are both answered before the return.
 */
const OUTAGE_MS = 9_000;
const ANSWER_WITHIN_MS = 5_000;
const READY_FAILS_WITHIN_MS = 2_000;
const RESUME_WITHIN_MS = 5_000;
const FUNDING_MINOR = 1_000_000_000n;
const AMOUNT_MINOR = 10_000n;
/** Every request is the same float of 100 KES; only its key differs. */
const body = { mobile: '254712000009', amount: '100', agent_number: '1', store_number: '2' };
/** Requests answered 9000 and never applied, retried to show a retry applies them once. */
const FRESH_RETRIES = 10;

interface Answer {
  readonly key: string;
  readonly startedAt: number;
  readonly finishedAt: number;
  readonly httpStatus: number;
  readonly code: string;
  readonly retryAfter: string | null;
  readonly reference: string | undefined;
}

interface Load {
  readonly answers: readonly Answer[];
  stop(): Promise<void>;
}

/** `clients` callers each sending keyed float requests one after another until stopped. */
function startLoad(url: string, token: string, clients: number, keyPrefix: string): Load {
  const answers: Answer[] = [];
  let stopped = false;
  let sequence = 0;
  const client = async () => {
    while (!stopped) {
      sequence += 1;
      const key = `${keyPrefix}-${sequence}`;
      const startedAt = Date.now();
      try {
        const response = await fetch(`${url}/api/send_agent_float`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': key,
          },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(20_000),
        });
        const envelope = (await response.json()) as {
          status: { code: string };
          data: { transaction?: { reference: string } };
        };
        answers.push({
          key,
          startedAt,
          finishedAt: Date.now(),
          httpStatus: response.status,
          code: envelope.status.code,
          retryAfter: response.headers.get('retry-after'),
          reference: envelope.data.transaction?.reference,
        });
        // A 503 asks to come back later; a real client would wait Retry-After (5 s), this one keeps the
        // pressure on.
        if (response.status === 503) await sleep(200);
      } catch (error) {
        // No answer at all (the server died or hung): recorded, so the assertions say what happened.
        const reason = error instanceof Error ? (error.cause ?? error) : error;
        answers.push({
          key,
          startedAt,
          finishedAt: Date.now(),
          httpStatus: 0,
          code: `no answer: ${String(reason)}`,
          retryAfter: null,
          reference: undefined,
        });
        await sleep(200);
      }
    }
  };
  const running = Promise.all(Array.from({ length: clients }, client));
  return {
    answers,
    async stop() {
      stopped = true;
      await running;
    },
  };
}

/** /readyz's status and how long it took to give it. */
async function readiness(url: string): Promise<{ status: number; tookMs: number }> {
  const startedAt = Date.now();
  const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
  await response.arrayBuffer();
  return { status: response.status, tookMs: Date.now() - startedAt };
}

/** The worker's `topup_worker_queue_stats_up`, from a scrape that must succeed. */
async function queueStatsUp(workerUrl: string): Promise<number | undefined> {
  const response = await fetch(`${workerUrl}/metrics`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
  expect(response.status).toBe(200);
  const line = (await response.text())
    .split('\n')
    .find((text) => text.startsWith('topup_worker_queue_stats_up '));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe.skipIf(databaseUrl === undefined)('PostgreSQL cut off mid-load, through a TCP proxy', () => {
  describe.each<CutMode>(['close', 'black hole'])('its connections cut by %s', (mode) => {
    let db: PostgresSchema;
    let proxy: TcpProxy;
    let sink: CallbackSink;
    let server: RunningChild;
    let worker: RunningChild;
    let token: string;
    let accountId: string;
    let runningLoad: Load | undefined;

    beforeAll(async () => {
      const url = databaseUrl ?? '';
      db = await openPostgresSchema(url);
      proxy = await startTcpProxy({ host: new URL(url).hostname, port: Number(new URL(url).port || 5432) });
      sink = await startCallbackSink();
      const ledger = createLedger(db.store);
      const account = await ledger.createAccount({ name: 'Outage Ltd', mobile: '254700000100' });
      accountId = account.id;
      await ledger.fund(account.id, 'float', FUNDING_MINOR);
      await ledger.addCallbackEndpoint(account.id, { url: sink.url, format: 'json', description: 'sink' });
      ({ token } = await ledger.issueToken(account.id, 'test'));
      await ledger.close();
      // The service's own store limits are left at their defaults: those are what is promised.
      const env = {
        ...db.env,
        DATABASE_URL: proxy.urlFor(url),
        PORT: '0',
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        SIMULATOR_DELAY_MS: '0',
        PROVIDER_TIMEOUT_MS: '2000',
        CALLBACK_RETRY_SCHEDULE: '0,0.5,1,1,1,1',
        RATE_LIMIT_PER_SECOND: '1000000',
        RATE_LIMIT_BURST: '1000000',
      };
      [server, worker] = await Promise.all([startService('src/serve.ts', env), startWorkerProcess(env)]);
    });

    afterAll(async () => {
      // Stopped here too, so that a failed assertion does not leave the callers running.
      await runningLoad?.stop();
      await Promise.all([server.stop(), worker.stop()]);
      await sink.close();
      await proxy.close();
      await db.drop();
    });

    it('answers 9000/503 within 5 s while cut, fails /readyz, resumes within 5 s of the return, and half-writes nothing', async () => {
      const load = startLoad(server.url, token, CLIENTS, mode.replace(' ', '-'));
      runningLoad = load;
      await eventually('answers before the cut', () => (load.answers.length >= 50 ? true : undefined));

      const cutAt = Date.now();
      proxy.cut(mode);
      const readyAtCut = await readiness(server.url);
      await sleep(1_000);
      // The worker's scrape answers all the same, its queue gauges marked stale.
      expect(await queueStatsUp(worker.url)).toBe(0);
      await sleep(cutAt + OUTAGE_MS - Date.now());
      const readyLate = await readiness(server.url);

      const restoredAt = Date.now();
      proxy.restore();
      const readyAt = await eventually(
        '/readyz to pass again',
        async () => ((await readiness(server.url)).status === 200 ? Date.now() : undefined),
        RESUME_WITHIN_MS * 2,
      );
      const firstAfter = await eventually(
        'a 0000 answer to a request sent after the return',
        () => load.answers.find((answer) => answer.startedAt >= restoredAt && answer.code === '0000'),
        RESUME_WITHIN_MS * 2,
      );
      // The worker resumed too: the first transaction after the return is completed and called back, and
      // both are measured from the return, not from the first success.
      const reference = firstAfter.reference ?? '';
      const delivered = await eventually(
        `the callback of ${reference}`,
        () => sink.arrived.find((callback) => callback.reference === reference),
        RESUME_WITHIN_MS * 2,
      );
      const statsBackAt = await eventually(
        'the worker’s queue gauges to be current again',
        async () => ((await queueStatsUp(worker.url)) === 1 ? Date.now() : undefined),
        RESUME_WITHIN_MS * 2,
      );
      await sleep(1_000);
      await load.stop();

      for (const ready of [readyAtCut, readyLate]) {
        expect(ready.status).toBe(503);
        expect(ready.tookMs).toBeLessThan(READY_FAILS_WITHIN_MS);
      }
      expect(readyAt - restoredAt).toBeLessThan(RESUME_WITHIN_MS);
      expect(firstAfter.finishedAt - restoredAt).toBeLessThan(RESUME_WITHIN_MS);
      expect(delivered.receivedAt - restoredAt).toBeLessThan(RESUME_WITHIN_MS);
      expect(statsBackAt - restoredAt).toBeLessThan(RESUME_WITHIN_MS);
      const slowest = Math.max(...load.answers.map((answer) => answer.finishedAt - answer.startedAt));
      expect(slowest).toBeLessThan(ANSWER_WITHIN_MS);
      // Everything answered while cut, in flight at the cut or sent into it.
      const duringCut = load.answers.filter(
        (answer) => answer.finishedAt > cutAt + 500 && answer.finishedAt < restoredAt,
      );
      expect(duringCut.filter((answer) => answer.startedAt > cutAt).length).toBeGreaterThanOrEqual(CLIENTS);
      for (const answer of duringCut) {
        expect({ status: answer.httpStatus, code: answer.code, retryAfter: answer.retryAfter }).toEqual({
          status: 503,
          code: '9000',
          retryAfter: '5',
        });
      }
      // Nothing but 0000 and 9000/503 at any time: an outage never shows as anything else.
      for (const answer of load.answers) {
        expect([answer.code, answer.httpStatus]).toSatisfy(
          ([code, status]: [string, number]) => (code === '0000' && status === 200) || status === 503,
        );
      }
      expect(server.child.exitCode).toBeNull();
      expect(worker.child.exitCode).toBeNull();

      // Nothing half-written. Every transaction resolves, interrupted submissions included.
      await eventually(
        'every transaction resolved',
        async () => {
          const { rows } = await db.store.query<{ open: number }>(
            "SELECT count(*)::int AS open FROM transactions WHERE state = 'requested'",
          );
          return rows[0]?.open === 0 ? true : undefined;
        },
        20_000,
        200,
      );
      const keysInStore = async () => {
        const { rows } = await db.store.query<{ key: string; reference: string }>(
          'SELECT key, reference FROM idempotency_keys WHERE account_id = $1',
          [accountId],
        );
        return new Map(rows.map((row) => [row.key, row.reference]));
      };
      const committed = await keysInStore();
      // A 0000 is always in the store; a 9000 may be too (its batch's COMMIT was in doubt), nothing else is.
      const answered = new Map(load.answers.map((answer) => [answer.key, answer]));
      for (const answer of load.answers.filter((each) => each.code === '0000'))
        expect(committed.get(answer.key)).toBe(answer.reference);
      for (const key of committed.keys()) expect(answered.get(key)?.code).toMatch(/^(0000|9000)$/);
      // A retry with its key tells what became of a 9000. One whose transaction committed answers with it:
      // 0000, or 9000 if the provider could not take it during the outage and it was cancelled, nothing
      // spent. One that never happened is applied now, once.
      const inDoubt = [...committed.keys()].filter((key) => answered.get(key)?.code !== '0000');
      const neverApplied = load.answers
        .filter((answer) => answer.code !== '0000' && !committed.has(answer.key))
        .slice(0, FRESH_RETRIES)
        .map((answer) => answer.key);
      const retried = await Promise.all(
        [...inDoubt, ...neverApplied].map(async (key) => ({
          key,
          ...(await postUntilAnswered({
            url: `${server.url}/api/send_agent_float`,
            token,
            idempotencyKey: key,
            body,
            deadlineMs: 30_000,
          })),
        })),
      );
      const keys = await keysInStore();
      const finalCode = new Map(load.answers.map((answer) => [answer.key, answer.code]));
      for (const retry of retried) {
        finalCode.set(retry.key, retry.code);
        expect(retry.code).toMatch(neverApplied.includes(retry.key) ? /^0000$/ : /^(0000|9000)$/);
        if (retry.code !== '0000') continue;
        const transaction = retry.data.transaction as { reference: string } | undefined;
        expect(transaction?.reference).toBe(keys.get(retry.key));
        if (inDoubt.includes(retry.key)) expect(transaction?.reference).toBe(committed.get(retry.key));
      }

      await eventually(
        'every transaction resolved after the retries',
        async () => {
          const { rows } = await db.store.query<{ open: number }>(
            "SELECT count(*)::int AS open FROM transactions WHERE state = 'requested'",
          );
          return rows[0]?.open === 0 ? true : undefined;
        },
        20_000,
        200,
      );
      const { rows: transactions } = await db.store.query<{
        reference: string;
        state: string;
        keys: number;
        pending: number;
      }>(
        `SELECT t.reference, t.state,
                (SELECT count(*)::int FROM idempotency_keys k WHERE k.reference = t.reference) AS keys,
                (SELECT count(*)::int FROM transfers f WHERE f.reference = t.reference AND f.kind = 'pending') AS pending
         FROM transactions t WHERE t.account_id = $1`,
        [accountId],
      );
      for (const row of transactions) {
        expect({ keys: row.keys, pending: row.pending }).toEqual({ keys: 1, pending: 1 });
        expect(row.state).toMatch(/^(completed|cancelled)$/);
      }
      // Completed is exactly what was answered 0000 in the end, by the request or by its retry.
      const stateOf = new Map(transactions.map((row) => [row.reference, row.state]));
      const completedKeys = [...keys].filter(([, reference]) => stateOf.get(reference) === 'completed');
      const answered0000 = [...finalCode].filter(([, code]) => code === '0000').map(([key]) => key);
      expect(new Set(completedKeys.map(([key]) => key))).toEqual(new Set(answered0000));
      const { rows: orphanKeys } = await db.store.query(
        'SELECT key FROM idempotency_keys k WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.reference = k.reference)',
      );
      expect(orphanKeys).toEqual([]);
      // The money moved is exactly the requests answered 0000.
      const ledger = createLedger(db.store);
      expect((await ledger.balance(accountId, 'float')).availableMinor).toBe(
        FUNDING_MINOR - AMOUNT_MINOR * BigInt(answered0000.length),
      );
      expect(await ledger.verify()).toMatchObject({ ok: true, breaches: [] });
      await ledger.close();
      // A claim whose commit reached PostgreSQL but whose answer was lost in the cut leaves that delivery
      // leased to the worker that never saw it; it is sent once the lease (2 × 15 s timeout + 5 s) lapses.
      await eventually(
        'a callback for every transaction, completed or cancelled',
        () => {
          const called = new Set(sink.arrived.map((callback) => callback.reference));
          return transactions.every((row) => called.has(row.reference)) ? true : undefined;
        },
        45_000,
        200,
      );
    }, 180_000);
  });
});
