// Pushed results that name a submission by the provider's own id: applied once the adapter has recorded
// that id, waiting (unmarked, unlogged as a failure) while it has not, kept for an operator once the wait
// is over, and never applied to a submission through a status query's id when the report is about the
// submission itself. On a real embedded store, with the ledger's side recorded.

import { openStore, type Ledger, type Store } from '@topup/ledger';
import {
  migrateProviders,
  recordSubmissionId,
  storeWebhookCall,
  type Provider,
  type ProviderReport,
  type WebhookCall,
  type WebhookEvent,
} from '@topup/providers';
import { pino } from 'pino';
import { createWorkerMetrics } from '../worker-metrics.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyPushedResults, type PushedResultsDependencies } from './pushed-results.js';

/** A provider whose calls are one JSON report: `{id, providerId, about, outcome}`. */
const reporting: Provider = {
  name: 'reporting',
  idempotentSubmissions: false,
  webhooks: {
    parse(call: WebhookCall): WebhookEvent {
      const report = JSON.parse(call.body) as ProviderReport;
      return { kind: 'reports', eventId: report.id, reports: [report] };
    },
    reply: () => ({ status: 200, contentType: 'application/json', body: '{}' }),
  },
  submit: () => Promise.resolve({ kind: 'accepted' }),
  readyResults: () => Promise.resolve([]),
  acknowledge: () => Promise.resolve(),
  query: () => Promise.resolve({ kind: 'pending' }),
};

describe('applyPushedResults with reports named by provider ids', () => {
  let store: Store;
  let clock = new Date('2026-11-26T10:00:00.000Z');
  const applied: string[] = [];
  const ledger: Pick<Ledger, 'complete' | 'cancel' | 'applyLegEvent'> = {
    applyLegEvent: (reference, leg, event) => {
      applied.push(`note ${reference} ${leg} ${event.kind === 'result' ? event.outcome : event.kind}`);
      return Promise.resolve(undefined);
    },
    complete: (reference, input) => {
      applied.push(`complete ${reference} ${input.providerCode}`);
      return Promise.resolve({ kind: 'not_found' });
    },
    cancel: (reference, input) => {
      applied.push(`cancel ${reference} ${input.reason}`);
      return Promise.resolve({ kind: 'not_found' });
    },
  };
  const deps = (): PushedResultsDependencies => ({
    store,
    ledger,
    providers: { named: (name) => (name === reporting.name ? reporting : undefined) },
    logger: pino({ level: 'silent' }),
    metrics: createWorkerMetrics(() => Promise.resolve({ pending: 0, oldestPendingAgeSeconds: 0 })),
    batchSize: 10,
    uncorrelatedAfterMs: 60_000,
    now: () => clock,
  });
  const push = async (report: ProviderReport) => {
    const call = { event: 'result', contentType: 'application/json', body: JSON.stringify(report) };
    await storeWebhookCall(
      store,
      reporting.name,
      call,
      reporting.webhooks?.parse(call) ?? { kind: 'garbled', problem: '' },
      clock,
    );
  };
  const outcomes = async () =>
    (
      await store.query<{ event_id: string; outcome: string; applied: boolean }>(
        `SELECT event_id, outcome, applied_at IS NOT NULL AS applied FROM provider_webhook_inbox ORDER BY id`,
      )
    ).rows;

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    await migrateProviders(store);
  }, 30_000);
  afterAll(async () => {
    await store.close();
  });

  it('waits for an id recorded after its result came, then applies the result to its reference', async () => {
    await push({
      id: 'e1',
      providerId: 'AG_1',
      about: 'submission',
      outcome: 'completed',
      providerCode: 'R1',
      reason: '',
    });
    expect(await applyPushedResults(deps())).toEqual({ more: false, applied: 0 });
    expect(applied).toEqual([]);
    expect(await outcomes()).toEqual([{ event_id: 'e1', outcome: '', applied: false }]);

    await recordSubmissionId(
      store,
      { provider: 'reporting', providerId: 'AG_1', reference: 'TX1', purpose: 'submission', otherId: '' },
      clock,
    );
    // Deferred meanwhile: read again a quarter of a second later.
    await applyPushedResults(deps());
    expect(applied).toEqual([]);
    clock = new Date(clock.getTime() + 250);
    await applyPushedResults(deps());
    expect(applied).toEqual(['complete TX1 R1']);
    expect(await outcomes()).toEqual([{ event_id: 'e1', outcome: 'not_found', applied: true }]);
  });

  it('never applies a failed status query to the submission it asked about', async () => {
    applied.length = 0;
    await recordSubmissionId(
      store,
      { provider: 'reporting', providerId: 'AG_2', reference: 'TX2', purpose: 'status', otherId: '' },
      clock,
    );
    await push({
      id: 'e2',
      providerId: 'AG_2',
      about: 'submission',
      outcome: 'declined',
      providerCode: '2032',
      reason: 'no',
    });
    await applyPushedResults(deps());
    expect(applied).toEqual([]);
    expect((await outcomes()).at(-1)).toEqual({
      event_id: 'e2',
      outcome: 'ignored: it speaks of no submission',
      applied: true,
    });
  });

  it('keeps a result whose id was never recorded for an operator once the wait is over', async () => {
    applied.length = 0;
    await push({
      id: 'e3',
      providerId: 'AG_lost',
      about: 'submission',
      outcome: 'completed',
      providerCode: 'R3',
      reason: '',
    });
    await applyPushedResults(deps());
    expect((await outcomes()).at(-1)).toMatchObject({ event_id: 'e3', applied: false });
    clock = new Date(clock.getTime() + 60_000);
    await applyPushedResults(deps());
    expect(applied).toEqual([]);
    expect((await outcomes()).at(-1)).toEqual({
      event_id: 'e3',
      outcome: 'uncorrelated: AG_lost',
      applied: true,
    });
  });

  it('never lets calls waiting for their ids stand in front of a newer one', async () => {
    applied.length = 0;
    for (const index of [1, 2, 3]) {
      await push({
        id: `w${String(index)}`,
        providerId: `AG_waiting_${String(index)}`,
        about: 'submission',
        outcome: 'completed',
        providerCode: 'RW',
        reason: '',
      });
    }
    await recordSubmissionId(
      store,
      { provider: 'reporting', providerId: 'AG_4', reference: 'TX4', purpose: 'submission', otherId: '' },
      clock,
    );
    await push({
      id: 'e4',
      providerId: 'AG_4',
      about: 'submission',
      outcome: 'completed',
      providerCode: 'R4',
      reason: '',
    });
    const small = { ...deps(), batchSize: 2 };
    expect(await applyPushedResults(small)).toEqual({ more: true, applied: 0 });
    expect((await applyPushedResults(small)).applied).toBe(1);
    expect(applied).toEqual(['complete TX4 R4']);
    const waiting = (await outcomes()).filter((entry) => entry.event_id.startsWith('w'));
    expect(waiting.map((entry) => entry.applied)).toEqual([false, false, false]);
  });
});
