// Applying pushed results: the webhook calls the server stored in the providers' inbox are read again by
// their provider's receiver and applied through the ledger exactly as pulled results are, then marked with
// what came of them. A call is marked only after the ledger took its results, so a crash in between
// applies it again, which the ledger answers `already_resolved`; a call for a provider this worker does not
// run is marked so and kept for an operator. A call that names submissions by the provider's own ids waits
// until the adapter has recorded them (a callback may overtake the acknowledgement that carries the id),
// and is marked `uncorrelated` for an operator when one is still unknown after `uncorrelatedAfterMs`.

import type { Ledger, Queryable } from '@topup/ledger';
import {
  deferWebhookCalls,
  markWebhookCallsApplied,
  recordedSubmissionIds,
  unappliedWebhookCalls,
} from '@topup/providers';
import type {
  InboxEntry,
  ProviderResult,
  ProviderRoutes,
  SubmissionId,
  WebhookEvent,
} from '@topup/providers';
import type { Logger } from 'pino';
import type { RoundResult } from './poll-loop.js';
import { applyProviderResult } from './result-application.js';
import type { WorkerMetrics } from '../worker-metrics.js';

export interface PushedResultsDependencies {
  readonly store: Queryable;
  readonly ledger: Pick<Ledger, 'complete' | 'cancel' | 'applyLegEvent'>;
  readonly metrics: Pick<WorkerMetrics, 'reviews'>;
  readonly providers: Pick<ProviderRoutes, 'named'>;
  readonly logger: Logger;
  readonly batchSize: number;
  /** How long a call may name a provider id not recorded yet before it is left for an operator. */
  readonly uncorrelatedAfterMs: number;
  readonly now: () => Date;
}

/**
 * A stored call read by its provider's receiver: what it says, why it cannot be applied, or what the
 * receiver threw (which fails that call alone, to be retried).
 */
type ParsedCall =
  | { readonly settled: string }
  | { readonly thrown: unknown }
  | { readonly provider: string; readonly event: Extract<WebhookEvent, { kind: 'results' | 'reports' }> };

function parsedCall(deps: PushedResultsDependencies, entry: InboxEntry): ParsedCall {
  const provider = deps.providers.named(entry.provider);
  if (provider?.webhooks === undefined) return { settled: `no provider ${entry.provider} in this worker` };
  let event: WebhookEvent;
  try {
    event = provider.webhooks.parse(entry.call);
  } catch (error) {
    return { thrown: error };
  }
  if (event.kind === 'garbled') return { settled: 'garbled' };
  if (event.kind === 'ignored') return { settled: `ignored: ${event.why}` };
  return { provider: provider.name, event };
}

/**
 * The recorded submission ids every call of a round names, read once per provider for the whole round
 * rather than once per call: a busy inbox holds dozens of calls per round.
 */
async function recordedIdsOf(
  deps: PushedResultsDependencies,
  calls: readonly ParsedCall[],
): Promise<ReadonlyMap<string, ReadonlyMap<string, SubmissionId>>> {
  const named = new Map<string, Set<string>>();
  for (const call of calls) {
    if (!('event' in call) || call.event.kind !== 'reports') continue;
    const ids = named.get(call.provider) ?? new Set<string>();
    for (const report of call.event.reports) ids.add(report.providerId);
    named.set(call.provider, ids);
  }
  const recorded = await Promise.all(
    [...named].map(
      async ([provider, ids]) =>
        [provider, await recordedSubmissionIds(deps.store, provider, [...ids])] as const,
    ),
  );
  return new Map(recorded);
}

/**
 * The results a call names, with our references: `waiting` while one of its provider ids is not recorded
 * yet, and without the reports about an id recorded for another purpose (a status query that failed says
 * nothing of the submission it asked about).
 */
function resultsOf(
  event: Extract<WebhookEvent, { kind: 'results' | 'reports' }>,
  recorded: ReadonlyMap<string, SubmissionId> | undefined,
): readonly ProviderResult[] | { readonly waiting: readonly string[] } {
  if (event.kind === 'results') return event.results;
  const ids = event.reports.map((report) => report.providerId);
  const unknown = ids.filter((id) => recorded?.has(id) !== true);
  if (unknown.length > 0) return { waiting: unknown };
  return event.reports.flatMap(({ providerId, about, ...report }) => {
    const id = recorded?.get(providerId);
    return id === undefined || id.purpose !== about ? [] : [{ ...report, reference: id.reference }];
  });
}

/** What came of a call, or undefined when it waits for a provider id to be recorded. */
async function outcomeOf(
  deps: PushedResultsDependencies,
  entry: InboxEntry,
  call: ParsedCall,
  recorded: ReadonlyMap<string, ReadonlyMap<string, SubmissionId>>,
): Promise<string | undefined> {
  if ('thrown' in call) throw call.thrown;
  if ('settled' in call) return call.settled;
  const results = resultsOf(call.event, recorded.get(call.provider));
  if ('waiting' in results) {
    const waitedMs = deps.now().getTime() - entry.receivedAt.getTime();
    return waitedMs < deps.uncorrelatedAfterMs ? undefined : `uncorrelated: ${results.waiting.join(',')}`;
  }
  if (results.length === 0) return 'ignored: it speaks of no submission';
  const outcomes = [];
  for (const result of results) {
    outcomes.push((await applyProviderResult(deps, result, call.provider, `webhook ${entry.id}`)).action);
  }
  return outcomes.join(',');
}

/**
 * How long a call waiting for its provider id is left before it is read again: half its wait so far,
 * between a quarter of a second (an acknowledgement is usually recorded within the request) and 30 s.
 */
function waitingRetryMs(waitedMs: number): number {
  return Math.min(Math.max(250, waitedMs / 2), 30_000);
}

/** A round of pushed results, and how many calls it applied (a purchase's next step may be due). */
export interface PushedResultsRound extends RoundResult {
  readonly applied: number;
}

/**
 * One round: applies a batch of stored webhook calls, oldest first. A call still waiting for its provider
 * id is deferred, so calls waiting in numbers never stand in front of newer ones.
 */
export async function applyPushedResults(deps: PushedResultsDependencies): Promise<PushedResultsRound> {
  const now = deps.now();
  const entries = await unappliedWebhookCalls(deps.store, deps.batchSize, now);
  const calls = entries.map((entry) => ({ entry, call: parsedCall(deps, entry) }));
  const recorded = await recordedIdsOf(
    deps,
    calls.map(({ call }) => call),
  );
  const settled = await Promise.allSettled(
    calls.map(({ entry, call }) => outcomeOf(deps, entry, call, recorded)),
  );
  const applied: { id: string; outcome: string }[] = [];
  const waiting = new Map<number, string[]>();
  let failed = 0;
  settled.forEach((answer, index) => {
    const entry = entries[index];
    if (entry === undefined) return;
    if (answer.status === 'rejected') {
      failed += 1;
      deps.logger.error(
        { inboxId: entry.id, provider: entry.provider, err: answer.reason },
        'applying a pushed result failed; will retry',
      );
      return;
    }
    if (answer.value === undefined) {
      const retryMs = waitingRetryMs(now.getTime() - entry.receivedAt.getTime());
      waiting.set(retryMs, [...(waiting.get(retryMs) ?? []), entry.id]);
      return;
    }
    applied.push({ id: entry.id, outcome: answer.value });
    const fields = {
      inboxId: entry.id,
      provider: entry.provider,
      event: entry.call.event,
      outcome: answer.value,
    };
    if (answer.value.startsWith('uncorrelated')) {
      deps.logger.warn(
        fields,
        'pushed result names a submission its provider never acknowledged here; kept for an operator',
      );
    } else {
      deps.logger.info(fields, 'pushed result applied');
    }
  });
  await markWebhookCallsApplied(deps.store, applied, now);
  for (const [retryMs, ids] of waiting) {
    await deferWebhookCalls(deps.store, ids, new Date(now.getTime() + retryMs));
  }
  return { more: entries.length === deps.batchSize && failed === 0, applied: applied.length };
}
