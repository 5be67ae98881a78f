import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import type { ProviderStatus, SubmitResult } from '@topup/providers';
import { createWorkerMetrics } from '../worker-metrics.js';
import { resumeInterruptedSubmissions } from './interrupted-submissions.js';
import type { InterruptedSubmissionsDependencies } from './interrupted-submissions.js';

/** Every network to `provider`, as sandbox mode routes them. */
const routeTo = <P>(provider: P) => ({ forNetwork: (): P | undefined => provider });

type Ledger = InterruptedSubmissionsDependencies['ledger'];
type Stuck = Awaited<ReturnType<Ledger['listUnsubmitted']>>[number];

const noQueue = () => Promise.resolve({ pending: 0, oldestPendingAgeSeconds: 0 });

/** One round over interrupted submission TX1, its provider idempotent or not and answering as given. */
function harness(
  idempotent: boolean,
  status: () => Promise<ProviderStatus>,
  submitted: () => Promise<SubmitResult> = () => Promise.resolve({ kind: 'accepted' }),
  createdAt = new Date('2026-11-24T11:59:40.000Z'),
  claims = true,
) {
  const calls: string[] = [];
  const done = () => Promise.resolve({ kind: 'not_found' } as Awaited<ReturnType<Ledger['cancel']>>);
  const deps: InterruptedSubmissionsDependencies = {
    ledger: {
      listUnsubmitted: () => Promise.resolve([{ reference: 'TX1', createdAt } as Stuck]),
      markSubmitted: (reference) => {
        calls.push(`marked ${reference}`);
        return Promise.resolve();
      },
      cancel: (reference) => {
        calls.push(`cancel ${reference}`);
        return done();
      },
      complete: (reference, input) => {
        calls.push(`complete ${reference} ${input.providerCode}`);
        return done();
      },
      legs: () => Promise.resolve([]),
      applyLegEvent: (reference, _leg, event) => {
        calls.push(`${event.kind} ${reference}`);
        const action = claims ? 'claim' : 'refuse';
        return Promise.resolve({ action, why: '', transaction: { reference } as Stuck, calls: 1 });
      },
      noteUnsettledLeg: (reference, leg) => {
        calls.push(`noted ${reference} ${leg.state}${leg.review ? ' for review' : ''}`);
        return Promise.resolve(true);
      },
    },
    providers: routeTo({
      name: 'network',
      idempotentSubmissions: idempotent,
      submit: () => {
        calls.push('submit');
        return submitted();
      },
      query: () => {
        calls.push('query');
        return status();
      },
      readyResults: () => Promise.resolve([]),
      acknowledge: (ids) => {
        calls.push(`ack ${ids.join(',')}`);
        return Promise.resolve();
      },
    }),
    logger: pino({ level: 'silent' }),
    metrics: createWorkerMetrics(noQueue),
    interruptedAfterMs: 15_000,
    timeoutMs: 60_000,
    queryAfterMs: 5_000,
    reconciliationWindowMs: 30_000,
    providerTimeoutMs: 50,
    batchSize: 10,
    now: () => new Date('2026-11-24T12:00:00.000Z'),
  };
  return { deps, calls };
}

describe('resumeInterruptedSubmissions', () => {
  it('sends nothing when another worker claimed the submission first', async () => {
    const { deps, calls } = harness(
      true,
      () => Promise.resolve({ kind: 'not_found' }),
      undefined,
      undefined,
      false,
    );
    await resumeInterruptedSubmissions(deps);
    expect(calls).toEqual(['call TX1']);
  });

  it('submits again to a provider that deduplicates submissions, without asking', async () => {
    const { deps, calls } = harness(true, () => Promise.resolve({ kind: 'not_found' }));
    await resumeInterruptedSubmissions(deps);
    expect(calls).toEqual(['call TX1', 'submit', 'marked TX1']);
  });

  it('never cancels what a deduplicating provider may have taken when it stays silent: it is sent again', async () => {
    const silent = harness(
      true,
      () => Promise.resolve({ kind: 'not_found' }),
      () => Promise.resolve({ kind: 'unavailable', reason: 'no answer' }),
    );
    await resumeInterruptedSubmissions(silent.deps);
    await resumeInterruptedSubmissions(silent.deps);
    expect(silent.calls).toEqual(['call TX1', 'submit', 'call TX1', 'submit']);

    const tookNothing = harness(
      true,
      () => Promise.resolve({ kind: 'not_found' }),
      () => Promise.resolve({ kind: 'unavailable', reason: 'refused the connection', taken: false }),
    );
    await resumeInterruptedSubmissions(tookNothing.deps);
    expect(tookNothing.calls).toEqual(['call TX1', 'submit', 'cancel TX1']);
  });

  it('asks a provider that cannot deduplicate first, and submits only what it never took', async () => {
    const { deps, calls } = harness(false, () => Promise.resolve({ kind: 'not_found' }));
    await resumeInterruptedSubmissions(deps);
    expect(calls).toEqual(['query', 'call TX1', 'submit', 'marked TX1']);
  });

  it('records what such a provider already has instead of sending it again', async () => {
    const pending = harness(false, () => Promise.resolve({ kind: 'pending' }));
    await resumeInterruptedSubmissions(pending.deps);
    expect(pending.calls).toEqual(['query', 'marked TX1']);

    const done = harness(false, () =>
      Promise.resolve({
        kind: 'result',
        result: { id: 'r1', reference: 'TX1', outcome: 'completed', providerCode: 'N-1', reason: '' },
      }),
    );
    await resumeInterruptedSubmissions(done.deps);
    expect(done.calls).toEqual(['query', 'complete TX1 N-1', 'ack r1']);
  });

  it('never cancels what such a provider may have taken when it fails after being asked: the leg is noted', async () => {
    const { deps, calls } = harness(
      false,
      () => Promise.resolve({ kind: 'not_found' }),
      () => Promise.reject(new Error('socket hang up')),
    );
    await resumeInterruptedSubmissions(deps);
    expect(calls).toEqual(['query', 'call TX1', 'submit', 'marked TX1', 'noted TX1 unknown']);
  });

  it('never sends blindly to such a provider when it cannot be asked: the leg is noted instead', async () => {
    const { deps, calls } = harness(false, () => Promise.reject(new Error('status endpoint down')));
    await resumeInterruptedSubmissions(deps);
    expect(calls).toEqual(['query', 'noted TX1 unknown']);
  });

  it('hands a submission it still cannot ask about to an operator once the reconciliation window is over', async () => {
    const { deps, calls } = harness(
      false,
      () => Promise.reject(new Error('no id recorded')),
      undefined,
      new Date('2026-11-24T11:58:30.000Z'),
    );
    await resumeInterruptedSubmissions(deps);
    expect(calls).toEqual(['query', 'noted TX1 unknown for review']);
  });

  it('sends nothing when no provider serves the transaction’s network any more, and notes its leg', async () => {
    const { deps, calls } = harness(true, () => Promise.resolve({ kind: 'not_found' }));
    await resumeInterruptedSubmissions({ ...deps, providers: { forNetwork: () => undefined } });
    expect(calls).toEqual(['noted TX1 unknown']);
  });
});
