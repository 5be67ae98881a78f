// What the funding functions of the catalog do: fund a channel, at once or as a request for a second
// admin, and decide requests.

import { formatMinor } from '@topup/ledger';
import { approveFunding, listFundingRequests, rejectFunding, requestFunding } from '../funding-requests.js';
import { OperatorError } from '../operator-error.js';
import type { OperatorActor } from '../operator-context.js';
import { fundedWithin, fundingWindowMs, lockChannelFunding } from '../recent-funding.js';
import { shillingsToMinor } from '../shillings.js';
import { fundingView } from '../views.js';
import { accountOrFail } from './accounts.js';
import type { Implementations } from './implementation.js';

/** Thrown inside a credit's transaction to cancel it: the funding waits for approval instead. */
const aboveThreshold = new Error('the funding is above the approval threshold');

/** The approver an approval needs: a signed-in admin in the console, never the CLI. */
export function consoleApprover(actor: OperatorActor): { name: string; since: Date } {
  if (actor.kind !== 'console')
    throw new OperatorError('forbidden', 'Approving is for a signed-in admin in the console, never the CLI.');
  return { name: actor.name, since: actor.since };
}

export const fundingImplementations: Implementations<
  'fund_channel' | 'list_funding_requests' | 'approve_funding' | 'reject_funding'
> = {
  async fund_channel(call, input) {
    const amountMinor = shillingsToMinor(String(input.amount));
    const { ledger, store, actor, now, record } = call;
    await accountOrFail(ledger, input.account);
    try {
      const balance = await ledger.fund(input.account, input.channel, amountMinor, {
        within: async (tx) => {
          // Counted over a day, so the threshold cannot be dodged by splitting one large funding into
          // many, and under the channel's lock, so it cannot be dodged by sending them all at once.
          await lockChannelFunding(tx, input.account, input.channel);
          const since = new Date(now().getTime() - fundingWindowMs);
          const recent = await fundedWithin(tx, input.account, input.channel, since);
          if (recent + amountMinor > call.fundingApprovalThresholdMinor) throw aboveThreshold;
          await record(tx, {
            target: input.account,
            after: { channel: input.channel, amount: formatMinor(amountMinor) },
          });
        },
      });
      return { state: 'applied', channel: input.channel, available: formatMinor(balance.availableMinor) };
    } catch (error) {
      if (error !== aboveThreshold) throw error;
    }
    const request = await store.transaction(async (tx) => {
      const made = await requestFunding(
        tx,
        { accountId: input.account, channel: input.channel, amountMinor, by: actor.name },
        now(),
      );
      await record(tx, { target: input.account, after: fundingView(made) });
      return made;
    });
    return { state: 'awaiting_approval', request: fundingView(request) };
  },
  async list_funding_requests({ store }) {
    return { requests: (await listFundingRequests(store)).map(fundingView) };
  },
  async approve_funding({ ledger, store, actor, now, record }, input) {
    const { request, balance } = await approveFunding(
      ledger,
      store,
      input.request_id,
      consoleApprover(actor),
      now(),
      (tx, approved) =>
        record(tx, {
          target: approved.accountId,
          before: { state: 'awaiting_approval' },
          after: fundingView(approved),
        }),
    );
    return { request: fundingView(request), available: formatMinor(balance.availableMinor) };
  },
  async reject_funding({ store, actor, now, record }, input) {
    const request = await store.transaction(async (tx) => {
      const rejected = fundingView(await rejectFunding(tx, input.request_id, actor.name, now()));
      await record(tx, { target: rejected.account, before: { state: 'awaiting_approval' }, after: rejected });
      return rejected;
    });
    return { request };
  },
};
