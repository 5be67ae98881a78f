// The sandbox provider: behaves like a remote network whose pending work is durable. Accepted submissions
// become rows of `provider_simulator_jobs`, so a worker restart neither loses nor repeats an outcome. Two
// workers may read the same ready result; the ledger resolves a transaction once, so it is applied once.
// Submissions that arrive together are written with one INSERT (rows in key order, so two writers never
// wait on each other crosswise), and a submission is accepted only once its row is written. Asked about a
// transaction, it answers from the same rows: a due job is a result, a job not yet due is pending, and no
// job means it never took the transaction (or its result was already taken).

import { randomString } from '@topup/ledger';
import type { Store, TransactionRecord } from '@topup/ledger';
import { createBatchedWrites } from './batched-writes.js';
import type { Provider, ProviderResult, ProviderStatus, SubmitResult } from './provider.js';
import { sandboxOutcome } from './sandbox-outcomes.js';
import { providerTablesReady } from './provider-migrations.js';
import { simulatorWebhooks } from './simulator-webhooks.js';

/**
 * How the simulator behaves.
 *
 * @example
 * ```ts
 * import type { SandboxSimulatorOptions } from '@topup/providers';
 *
 * const options: SandboxSimulatorOptions = { delayMs: 300 };
 * ```
 */
export interface SandboxSimulatorOptions {
  /** How long an accepted transaction takes to produce its result. */
  readonly delayMs: number;
}

interface NewJob {
  readonly reference: string;
  readonly outcome: JobRow['outcome'];
  readonly providerCode: string;
}

interface JobRow {
  reference: string;
  outcome: 'completes' | 'declined' | 'fails_after_payment';
  provider_code: string;
}

const resultOutcome = {
  completes: 'completed',
  declined: 'declined',
  fails_after_payment: 'failed_after_payment',
} as const;

const reasons = {
  completes: '',
  declined: 'payment declined',
  fails_after_payment: 'delivery failed after payment',
} as const;

function resultOf(row: JobRow): ProviderResult {
  return {
    id: row.reference,
    reference: row.reference,
    outcome: resultOutcome[row.outcome],
    providerCode: row.provider_code,
    reason: reasons[row.outcome],
  };
}

/** `SIM` and ten hex digits, from the ledger's pool of random bytes rather than a CSPRNG call each. */
function providerCode(): string {
  return `SIM${randomString('0123456789ABCDEF', 10)}`;
}

/**
 * The sandbox provider over the ledger's store: outcomes by the last four digits of the number concerned,
 * results ready `delayMs` after submission, durable across restarts.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createSandboxSimulator } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const simulator = createSandboxSimulator(store, { delayMs: 300 });
 * const ready = await simulator.readyResults(100);
 * await simulator.acknowledge(ready.map((result) => result.id));
 * ```
 */
export function createSandboxSimulator(store: Store, options: SandboxSimulatorOptions): Provider {
  // The table is made on first use.
  const tableReady = () => providerTablesReady(store);
  const jobs = createBatchedWrites<NewJob>(async (batch) => {
    await tableReady();
    await store.query(
      `INSERT INTO provider_simulator_jobs (reference, outcome, provider_code, due_at)
       SELECT r, o, c, now() + make_interval(secs => $4::double precision / 1000)
       FROM unnest($1::text[], $2::text[], $3::text[]) AS j (r, o, c)
       ORDER BY r
       ON CONFLICT (reference) DO NOTHING`,
      [
        batch.map((job) => job.reference),
        batch.map((job) => job.outcome),
        batch.map((job) => job.providerCode),
        options.delayMs,
      ],
    );
  });
  return {
    name: 'sandbox',
    // A job is keyed by its reference: a second submission of one writes nothing.
    idempotentSubmissions: true,
    webhooks: simulatorWebhooks,

    async submit(transaction: TransactionRecord): Promise<SubmitResult> {
      const outcome = sandboxOutcome(transaction);
      if (outcome === 'refused_at_once') {
        return { kind: 'refused', reason: 'refused by the provider', providerCode: providerCode() };
      }
      if (outcome === 'unavailable')
        return { kind: 'unavailable', reason: 'provider unavailable', taken: false };
      // A transaction that never answers is accepted and simply has no job: the timeout cancels it.
      if (outcome === 'never_answers') return { kind: 'accepted' };
      await jobs.write({ reference: transaction.reference, outcome, providerCode: providerCode() });
      return { kind: 'accepted' };
    },

    async readyResults(limit: number): Promise<ProviderResult[]> {
      await tableReady();
      const { rows } = await store.query<JobRow>(
        `SELECT reference, outcome, provider_code FROM provider_simulator_jobs
         WHERE acknowledged_at IS NULL AND due_at <= now()
         ORDER BY due_at LIMIT $1`,
        [limit],
      );
      return rows.map(resultOf);
    },

    async acknowledge(resultIds: readonly string[]): Promise<void> {
      if (resultIds.length === 0) return;
      await tableReady();
      // A taken result is deleted rather than marked: a deleted row writes no new version and no index entry.
      await store.query(`DELETE FROM provider_simulator_jobs WHERE reference = ANY($1::text[])`, [resultIds]);
    },

    async query(reference: string): Promise<ProviderStatus> {
      await tableReady();
      const { rows } = await store.query<JobRow & { due: boolean }>(
        `SELECT reference, outcome, provider_code, due_at <= now() AS due FROM provider_simulator_jobs
         WHERE reference = $1`,
        [reference],
      );
      const row = rows[0];
      if (row === undefined) return { kind: 'not_found' };
      return row.due ? { kind: 'result', result: resultOf(row) } : { kind: 'pending' };
    },
  };
}
