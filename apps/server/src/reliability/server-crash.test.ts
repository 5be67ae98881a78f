// Fault 1: the server process is killed with SIGKILL while 2,000 keyed float and airtime requests are in
// flight, then started again on the same address; a retrying caller repeats each request, with its key,
// until it is answered.
// Afterwards every request answered 0000 exists exactly once, no key has more than one transaction, the
// operator's `topup ledger verify` is clean and the balances are exactly what the answers imply.

import { once } from 'node:events';
import { createLedger } from '@topup/ledger';
import { createSandboxSimulator, routeEveryNetworkTo } from '@topup/providers';
import { startWorker } from '@topup/worker';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { runCli, startService } from '../testing/child-process.js';
import type { RunningChild } from '../testing/child-process.js';
import { eventually } from '../testing/eventually.js';
import { freePort } from '../testing/free-port.js';
import { postUntilAnswered } from '../testing/keyed-retries.js';
import { openPostgresSchema, postgresTestUrl } from '../testing/postgres-schema.js';

const databaseUrl = postgresTestUrl();
const REQUESTS = 2_000;
/** The kill comes once this many requests have been answered, so most are still in flight. */
const KILL_AFTER_ANSWERS = 250;
const FLOAT_FUNDING_MINOR = 100_000_000n;

interface Outcome {
  readonly key: string;
  readonly kind: 'float' | 'airtime';
  readonly amount: number;
  readonly code: string;
  readonly reference: string | undefined;
}

/** Ends in 9, never in a sandbox outcome's 0001 to 0005, so every transaction completes. */
function mobileOf(index: number): string {
  return `25471${String(index).padStart(6, '0')}9`;
}

async function send(baseUrl: string, token: string, index: number): Promise<Outcome> {
  const key = `crash-${index}`;
  const kind = index % 2 === 0 ? 'float' : 'airtime';
  const amount = kind === 'float' ? 100 + (index % 50) : 10 + (index % 90);
  const answer = await postUntilAnswered({
    url: `${baseUrl}/api/${kind === 'float' ? 'send_agent_float' : 'buy_airtime'}`,
    token,
    idempotencyKey: key,
    body:
      kind === 'float'
        ? { mobile: mobileOf(index), amount: String(amount), agent_number: '300300', store_number: '400400' }
        : {
            mobile: mobileOf(index),
            amount: String(amount),
            payment_network: 'MoneyNetB',
            payment_mobile: '254722000459',
          },
    deadlineMs: 120_000,
  });
  const transaction = answer.data.transaction as { reference?: string } | undefined;
  return { key, kind, amount, code: answer.code, reference: transaction?.reference };
}

describe.skipIf(databaseUrl === undefined)('a server killed with SIGKILL under load, on PostgreSQL', () => {
  it('answers every keyed request after a restart: each 0000 exactly once, the ledger clean, balances exact', async () => {
    const db = await openPostgresSchema(databaseUrl ?? '');
    const ledger = createLedger(db.store);
    const account = await ledger.createAccount({ name: 'Crash Test Ltd', mobile: '254700000100' });
    await ledger.fund(account.id, 'float', FLOAT_FUNDING_MINOR);
    await ledger.fund(account.id, 'airtime', 5_000_000n);
    const { token } = await ledger.issueToken(account.id, 'test');
    // The worker completes what the servers submitted and resumes what the kill interrupted.
    const worker = startWorker({
      store: db.store,
      ledger,
      providers: routeEveryNetworkTo(createSandboxSimulator(db.store, { delayMs: 0 })),
      logger: pino({ level: 'silent' }),
      settings: {
        mode: 'sandbox',
        // The test's receivers listen on loopback, as a developer's do on their own machine.
        allowLoopbackCallbacks: true,
        transactionTimeoutSeconds: 600,
        retryScheduleSeconds: [0],
        providerTimeoutMs: 5_000,
        pollIntervalMs: 200,
      },
    });
    const env = {
      ...db.env,
      PORT: String(await freePort()),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SIMULATOR_DELAY_MS: '0',
      PROVIDER_TIMEOUT_MS: '5000',
      RATE_LIMIT_PER_SECOND: '1000000',
      RATE_LIMIT_BURST: '1000000',
    };
    let server: RunningChild | undefined;
    try {
      server = await startService('src/serve.ts', env);
      // The restarted server listens on the same port, so one address serves before and after the kill.
      const baseUrl = server.url;
      let answered = 0;
      const pending = Array.from({ length: REQUESTS }, (_, index) =>
        send(baseUrl, token, index).finally(() => {
          answered += 1;
        }),
      );
      await eventually(`${KILL_AFTER_ANSWERS} answers before the kill`, () =>
        answered >= KILL_AFTER_ANSWERS ? true : undefined,
      );
      const exited = once(server.child, 'exit');
      server.child.kill('SIGKILL');
      await exited;
      const answeredBeforeKill = answered;
      server = await startService('src/serve.ts', env);
      const outcomes = await Promise.all(pending);

      expect(answeredBeforeKill).toBeLessThan(REQUESTS);
      // A provider slower than its timeout under this load is answered 9000 (cancelled, nothing spent).
      expect(new Set(outcomes.map((outcome) => outcome.code))).toSatisfy((codes: Set<string>) =>
        [...codes].every((code) => ['0000', '9000'].includes(code)),
      );
      const accepted = outcomes.filter((outcome) => outcome.code === '0000');
      expect(accepted.length).toBeGreaterThan(REQUESTS / 2);

      const { rows: transactions } = await db.store.query<{ reference: string; state: string }>(
        'SELECT reference, state FROM transactions WHERE account_id = $1',
        [account.id],
      );
      const { rows: keys } = await db.store.query<{ key: string; reference: string }>(
        'SELECT key, reference FROM idempotency_keys WHERE account_id = $1',
        [account.id],
      );
      // One key, at most one transaction; one transaction, exactly one key.
      const stateOf = new Map(transactions.map((row) => [row.reference, row.state]));
      const keyOf = new Map(keys.map((row) => [row.key, row.reference]));
      expect(new Set(keys.map((row) => row.reference)).size).toBe(keys.length);
      expect([...stateOf.keys()].sort()).toEqual(keys.map((row) => row.reference).sort());
      for (const outcome of outcomes) {
        if (outcome.code === '0000') expect(keyOf.get(outcome.key)).toBe(outcome.reference);
        else {
          const reference = keyOf.get(outcome.key);
          if (reference !== undefined) expect(stateOf.get(reference)).toBe('cancelled');
        }
      }

      // Interrupted submissions are resumed once the provider timeout has surely passed.
      await eventually(
        'every accepted transaction completed',
        async () => {
          const { rows } = await db.store.query<{ reference: string }>(
            "SELECT reference FROM transactions WHERE state = 'completed'",
          );
          const completed = new Set(rows.map((row) => row.reference));
          return accepted.every((outcome) => completed.has(outcome.reference ?? '')) ? true : undefined;
        },
        30_000,
        200,
      );
      const floatSpentMinor = accepted
        .filter((outcome) => outcome.kind === 'float')
        .reduce((sum, outcome) => sum + BigInt(outcome.amount) * 100n, 0n);
      expect((await ledger.balance(account.id, 'float')).availableMinor).toBe(
        FLOAT_FUNDING_MINOR - floatSpentMinor,
      );
      // Airtime is paid by the payer and paid out to the carrier: the caller's channel is untouched.
      expect((await ledger.balance(account.id, 'airtime')).availableMinor).toBe(5_000_000n);

      const verified = await runCli(['ledger', 'verify', '--json'], env);
      expect(verified.stderr).toBe('');
      expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, breaches: [] });
      expect(verified.code).toBe(0);
    } finally {
      await server?.stop();
      await worker.stop();
      await ledger.close();
      await db.drop();
    }
  }, 180_000);
});
