// Applying pushed results: the webhook calls the server stored in the providers' inbox are read again by
// their provider's receiver and applied through the ledger exactly as pulled results are, then marked with
// what came of them. A call is marked only after the ledger took its results, so a crash in between
// applies it again, which the ledger answers `already_resolved`; a call for a provider this worker does not
// run is marked so and kept for an operator.

import type { Ledger, Queryable } from '@topup/ledger';
import { markWebhookCallsApplied, unappliedWebhookCalls } from '@topup/providers';
import type { InboxEntry, ProviderRoutes } from '@topup/providers';
import type { Logger } from 'pino';
import type { RoundResult } from './poll-loop.js';
import { applyProviderResult } from './provider-results.js';

export interface PushedResultsDependencies {
  readonly store: Queryable;
  readonly ledger: Pick<Ledger, 'complete' | 'cancel'>;
  readonly providers: Pick<ProviderRoutes, 'named'>;
  readonly logger: Logger;
  readonly batchSize: number;
  readonly now: () => Date;
}

async function outcomeOf(deps: PushedResultsDependencies, entry: InboxEntry): Promise<string> {
  const provider = deps.providers.named(entry.provider);
  if (provider?.webhooks === undefined) {
    return `no provider ${entry.provider} in this worker`;
  }
  const event = provider.webhooks.parse(entry.call);
  if (event.kind !== 'results') return event.kind === 'garbled' ? 'garbled' : `ignored: ${event.why}`;
  const outcomes = [];
  for (const result of event.results) {
    outcomes.push((await applyProviderResult(deps.ledger, result, provider.name)).kind);
  }
  return outcomes.join(',');
}

/** One round: applies a batch of stored webhook calls, oldest first. */
export async function applyPushedResults(deps: PushedResultsDependencies): Promise<RoundResult> {
  const entries = await unappliedWebhookCalls(deps.store, deps.batchSize);
  const settled = await Promise.allSettled(entries.map((entry) => outcomeOf(deps, entry)));
  const applied: { id: string; outcome: string }[] = [];
  settled.forEach((answer, index) => {
    const entry = entries[index];
    if (entry === undefined) return;
    if (answer.status === 'rejected') {
      deps.logger.error(
        { inboxId: entry.id, provider: entry.provider, err: answer.reason },
        'applying a pushed result failed; will retry',
      );
      return;
    }
    applied.push({ id: entry.id, outcome: answer.value });
    deps.logger.info(
      { inboxId: entry.id, provider: entry.provider, event: entry.call.event, outcome: answer.value },
      'pushed result applied',
    );
  });
  await markWebhookCallsApplied(deps.store, applied, deps.now());
  return { more: entries.length === deps.batchSize && applied.length === entries.length };
}
