// How full each provider's webhook inbox is, as the provider routes need it on every call: counted in the
// store at most once a second per provider, with the calls this process stored since added on, instead of a
// count on every call (which read the whole waiting backlog each time, so a backlog made every call dearer
// just when the worker was behind). A refusal is never made on a count that old: a provider that seems
// full is counted again first, so calls are taken again as soon as the worker has caught up.

import type { Store } from '@topup/ledger';
import { waitingWebhookCalls } from '@topup/providers';

export interface InboxFill {
  /** Whether `provider` has `limit` calls or more waiting to be applied. */
  full(provider: string): Promise<boolean>;
  /** Notes a call this process stored for `provider`. */
  stored(provider: string): void;
}

/** How long a count is trusted to say "not full", with this process's own calls added on. */
const recountEveryMs = 1_000;

export function createInboxFill(store: Store, limit: number, now: () => number = Date.now): InboxFill {
  const counts = new Map<string, { waiting: number; countedAt: number }>();
  async function recount(provider: string): Promise<number> {
    const waiting = await waitingWebhookCalls(store, provider, limit);
    counts.set(provider, { waiting, countedAt: now() });
    return waiting;
  }
  return {
    async full(provider) {
      const known = counts.get(provider);
      if (known !== undefined && now() - known.countedAt < recountEveryMs && known.waiting < limit) {
        return false;
      }
      return (await recount(provider)) >= limit;
    },
    stored(provider) {
      const known = counts.get(provider);
      if (known !== undefined) known.waiting += 1;
    },
  };
}
