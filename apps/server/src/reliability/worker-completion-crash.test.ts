// Fault 3: a worker process killed inside the completion step, between the ledger posting and the callback
// outbox row (the resolution sends both in one statement, the outbox INSERT last). A trigger on the outbox
// table holds that INSERT, the worker is killed with SIGKILL, and the database notices the dead client: the
// posting and the outbox row must stand or fall together. A new worker then completes the transaction once,
// with its one callback.

import { once } from 'node:events';
import { createLedger } from '@topup/ledger';
import type { Ledger, TransactionRecord } from '@topup/ledger';
import { parseSendAgentFloat } from '@topup/validation';
import { createSandboxSimulator } from '@topup/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from '../testing/callback-sink.js';
import type { CallbackSink } from '../testing/callback-sink.js';
import { startWorkerProcess } from '../testing/child-process.js';
import type { RunningChild } from '../testing/child-process.js';
import { eventually } from '../testing/eventually.js';
import { openPostgresSchema, postgresTestUrl, runSql } from '../testing/postgres-schema.js';
import type { PostgresSchema } from '../testing/postgres-schema.js';

const databaseUrl = postgresTestUrl();

async function requestedFloat(
  db: PostgresSchema,
  ledger: Ledger,
  accountId: string,
): Promise<TransactionRecord> {
  const parsed = parseSendAgentFloat({
    mobile: '254712345679',
    amount: '250',
    agent_number: '300300',
    store_number: '400400',
  });
  if (!parsed.ok) throw new Error(`Expected a valid float request, received ${parsed.errors.join(', ')}`);
  const outcome = await ledger.requestAgentFloat({ accountId, request: parsed.value });
  if (outcome.kind !== 'created') throw new Error(`Expected a created transaction, received ${outcome.kind}`);
  // Submitted as the server does: the simulator's result is ready at once, for the worker to apply.
  const submitted = await createSandboxSimulator(db.store, { delayMs: 0 }).submit(outcome.transaction);
  expect(submitted.kind).toBe('accepted');
  await ledger.markSubmitted(outcome.transaction.reference);
  return outcome.transaction;
}

interface Effects {
  readonly state: string | undefined;
  readonly postings: number;
  readonly outboxRows: number;
}

async function effectsOf(db: PostgresSchema, reference: string): Promise<Effects> {
  const { rows } = await db.store.query<Effects>(
    `SELECT (SELECT state FROM transactions WHERE reference = $1) AS state,
            (SELECT count(*)::int FROM transfers WHERE reference = $1 AND kind = 'post') AS postings,
            (SELECT count(*)::int FROM callback_deliveries WHERE reference = $1) AS "outboxRows"`,
    [reference],
  );
  return rows[0] ?? { state: undefined, postings: -1, outboxRows: -1 };
}

describe.skipIf(databaseUrl === undefined)('a worker killed inside the completion step', () => {
  let db: PostgresSchema;
  let ledger: Ledger;
  let sink: CallbackSink;
  let accountId: string;
  let worker: RunningChild | undefined;

  beforeAll(async () => {
    db = await openPostgresSchema(databaseUrl ?? '');
    ledger = createLedger(db.store);
    sink = await startCallbackSink();
    const account = await ledger.createAccount({ name: 'Completion Ltd', mobile: '254700000100' });
    accountId = account.id;
    await ledger.fund(account.id, 'float', 10_000_000n);
    await ledger.addCallbackEndpoint(account.id, { url: sink.url, format: 'json', description: 'sink' });
  });

  afterAll(async () => {
    await worker?.stop();
    await sink.close();
    await ledger.close();
    await db.drop();
  });

  it('rolls back the posting with the outbox row, then completes once with one callback on restart', async () => {
    const transaction = await requestedFloat(db, ledger, accountId);
    const before = await ledger.balance(accountId, 'float');
    // Holds every outbox INSERT, i.e. the completion step after its posting; the backend checks for a
    // vanished client while it waits, as PostgreSQL does for any client that dies mid-transaction.
    await runSql(
      db.databaseUrl,
      `CREATE FUNCTION ${db.schema}.hold_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
       BEGIN
         PERFORM set_config('client_connection_check_interval', '100', true);
         PERFORM pg_sleep(10);
         RETURN NEW;
       END $$;
       CREATE TRIGGER hold_outbox BEFORE INSERT ON ${db.schema}.callback_deliveries
         FOR EACH ROW EXECUTE FUNCTION ${db.schema}.hold_outbox();`,
    );
    const settings = { ...db.env, LOG_LEVEL: 'info', CALLBACK_RETRY_SCHEDULE: '0,0.5,1' };
    const doomed = await startWorkerProcess(settings);
    const held = await eventually(
      'the worker to be held inside the completion step',
      async () => {
        // Found by the trigger's sleep: the statement's text can be longer than pg_stat_activity keeps.
        const { rows } = await db.store.query<{ pid: number }>(
          `SELECT pid FROM pg_stat_activity
           WHERE state = 'active' AND wait_event = 'PgSleep' AND backend_xid IS NOT NULL
             AND datname = current_database()`,
        );
        return rows[0]?.pid;
      },
      20_000,
    );
    // Posted inside the held transaction, invisible to everyone else until it commits.
    expect(await effectsOf(db, transaction.reference)).toEqual({
      state: 'requested',
      postings: 0,
      outboxRows: 0,
    });

    const exited = once(doomed.child, 'exit');
    doomed.child.kill('SIGKILL');
    await exited;
    await eventually(
      'the database to end the dead worker’s transaction',
      async () => {
        const { rows } = await db.store.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [held]);
        return rows.length === 0 ? true : undefined;
      },
      15_000,
    );
    expect(await effectsOf(db, transaction.reference)).toEqual({
      state: 'requested',
      postings: 0,
      outboxRows: 0,
    });
    expect(await ledger.balance(accountId, 'float')).toEqual(before);
    expect((await ledger.verify()).breaches).toEqual([]);

    await runSql(db.databaseUrl, `DROP TRIGGER hold_outbox ON ${db.schema}.callback_deliveries`);
    worker = await startWorkerProcess(settings);
    await eventually(
      'the callback of the completed transaction',
      () => sink.arrived.find((callback) => callback.reference === transaction.reference),
      15_000,
    );
    expect(await effectsOf(db, transaction.reference)).toEqual({
      state: 'completed',
      postings: 1,
      outboxRows: 1,
    });
    expect(sink.arrived.filter((callback) => callback.reference === transaction.reference)).toHaveLength(1);
    expect((await ledger.balance(accountId, 'float')).availableMinor).toBe(before.availableMinor);
    expect((await ledger.verify()).breaches).toEqual([]);
  }, 90_000);
});
