// Fault 2: PostgreSQL cut off in the middle of load, through a TCP proxy between the service processes and
// the database (the shared database itself is never stopped). While cut: every request is answered 9000
// with HTTP 503 within 5 s, none hangs, /readyz fails, and neither process crashes. Once the database is
// back, the server and the worker resume by themselves within 5 s, and nothing was left half-written.

import { setTimeout as sleep } from 'node:timers/promises';
import { createLedger } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from '../testing/callback-sink.js';
import type { CallbackSink } from '../testing/callback-sink.js';
import { startService, startWorkerProcess } from '../testing/child-process.js';
import type { RunningChild } from '../testing/child-process.js';
import { eventually } from '../testing/eventually.js';
import { openPostgresSchema, postgresTestUrl } from '../testing/postgres-schema.js';
import type { PostgresSchema } from '../testing/postgres-schema.js';
import { startTcpProxy } from '../testing/tcp-proxy.js';
import type { TcpProxy } from '../testing/tcp-proxy.js';

const databaseUrl = postgresTestUrl();
const CLIENTS = 16;
const OUTAGE_MS = 4_000;
const ANSWER_WITHIN_MS = 5_000;
const RESUME_WITHIN_MS = 5_000;

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
function startLoad(url: string, token: string, clients: number): Load {
  const answers: Answer[] = [];
  let stopped = false;
  let sequence = 0;
  const client = async () => {
    while (!stopped) {
      sequence += 1;
      const key = `outage-${sequence}`;
      const startedAt = Date.now();
      try {
        const response = await fetch(`${url}/api/send_agent_float`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${token}`,
            'Content-Type': 'application/json',
            'Idempotency-Key': key,
          },
          body: JSON.stringify({
            mobile: '254712000009',
            amount: '100',
            agent_number: '1',
            store_number: '2',
          }),
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
        // A 503 asks to come back later; a real client would wait Retry-After, this one keeps the pressure on.
        if (response.status === 503) await sleep(50);
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

async function readyStatus(url: string): Promise<number> {
  const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
  await response.arrayBuffer();
  return response.status;
}

describe.skipIf(databaseUrl === undefined)('PostgreSQL cut off mid-load, through a TCP proxy', () => {
  let db: PostgresSchema;
  let proxy: TcpProxy;
  let sink: CallbackSink;
  let server: RunningChild;
  let worker: RunningChild;
  let token: string;
  let accountId: string;

  beforeAll(async () => {
    const url = databaseUrl ?? '';
    db = await openPostgresSchema(url);
    proxy = await startTcpProxy({ host: new URL(url).hostname, port: Number(new URL(url).port || 5432) });
    sink = await startCallbackSink();
    const ledger = createLedger(db.store);
    const account = await ledger.createAccount({ name: 'Outage Ltd', mobile: '254700000100' });
    accountId = account.id;
    await ledger.fund(account.id, 'float', 1_000_000_000n);
    await ledger.addCallbackEndpoint(account.id, { url: sink.url, format: 'json', description: 'sink' });
    ({ token } = await ledger.issueToken(account.id, 'test'));
    await ledger.close();
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
    await Promise.all([server.stop(), worker.stop()]);
    await sink.close();
    await proxy.close();
    await db.drop();
  });

  it('answers 9000/503 within 5 s while cut, fails /readyz, and resumes within 5 s of the return', async () => {
    const load = startLoad(server.url, token, CLIENTS);
    await eventually('answers before the cut', () => (load.answers.length >= 50 ? true : undefined));

    const cutAt = Date.now();
    proxy.cut();
    expect(await readyStatus(server.url)).toBe(503);
    await sleep(OUTAGE_MS);
    expect(await readyStatus(server.url)).toBe(503);

    const restoredAt = Date.now();
    proxy.restore();
    const readyAt = await eventually(
      '/readyz to pass again',
      async () => ((await readyStatus(server.url)) === 200 ? Date.now() : undefined),
      RESUME_WITHIN_MS * 2,
    );
    const firstAfter = await eventually(
      'a 0000 answer to a request sent after the return',
      () => load.answers.find((answer) => answer.startedAt >= restoredAt && answer.code === '0000'),
      RESUME_WITHIN_MS * 2,
    );
    await sleep(1_000);
    await load.stop();

    expect(readyAt - restoredAt).toBeLessThan(RESUME_WITHIN_MS);
    expect(firstAfter.finishedAt - restoredAt).toBeLessThan(RESUME_WITHIN_MS);
    const slowest = Math.max(...load.answers.map((answer) => answer.finishedAt - answer.startedAt));
    expect(slowest).toBeLessThan(ANSWER_WITHIN_MS);
    const duringCut = load.answers.filter(
      (answer) => answer.startedAt > cutAt + 100 && answer.finishedAt < restoredAt,
    );
    expect(duringCut.length).toBeGreaterThan(CLIENTS);
    for (const answer of duringCut) {
      expect({ status: answer.httpStatus, code: answer.code, retryAfter: answer.retryAfter }).toEqual({
        status: 503,
        code: '9000',
        retryAfter: '5',
      });
    }
    expect(server.child.exitCode).toBeNull();
    expect(worker.child.exitCode).toBeNull();

    // The worker resumed too: the first transaction after the return is completed and called back promptly.
    const reference = firstAfter.reference ?? '';
    const delivered = await eventually(
      `the callback of ${reference}`,
      () => sink.arrived.find((callback) => callback.reference === reference),
      RESUME_WITHIN_MS * 2,
    );
    expect(delivered.receivedAt - firstAfter.finishedAt).toBeLessThan(RESUME_WITHIN_MS);

    // Nothing half-written: whatever was answered 0000 completes with its callback, every transaction has
    // its key and its reservation, and the ledger's invariants hold.
    const accepted = load.answers.filter((answer) => answer.code === '0000');
    await eventually(
      'every transaction resolved, interrupted submissions included',
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
    const byReference = new Map(transactions.map((row) => [row.reference, row]));
    for (const answer of accepted) expect(byReference.get(answer.reference ?? '')?.state).toBe('completed');
    for (const row of transactions)
      expect({ keys: row.keys, pending: row.pending }).toEqual({ keys: 1, pending: 1 });
    const { rows: orphanKeys } = await db.store.query(
      'SELECT key FROM idempotency_keys k WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.reference = k.reference)',
    );
    expect(orphanKeys).toEqual([]);
    expect(await createLedger(db.store).verify()).toMatchObject({ ok: true, breaches: [] });
    // A claim whose commit reached PostgreSQL but whose answer was lost in the cut leaves that delivery
    // leased to the worker that never saw it; it is sent once the lease (2 × 15 s timeout + 5 s) lapses.
    await eventually(
      'a callback for every completed transaction',
      () => {
        const called = new Set(sink.arrived.map((callback) => callback.reference));
        return transactions.every((row) => row.state !== 'completed' || called.has(row.reference))
          ? true
          : undefined;
      },
      45_000,
      200,
    );
  }, 150_000);
});
