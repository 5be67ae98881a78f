// Operator functions that add money to an account's channel: small amounts at once, larger ones held for
// a second admin (maker-checker), whose approval is a console act: the CLI may ask, never approve.

import { z } from 'zod';
import { channel, id, pageLines } from './fields.js';
import { answerOf, operatorFunction } from './operator-function.js';
import type { FundingOutcome, FundingRequestView } from './views.js';

export const fundingFunctions = {
  fund_channel: operatorFunction({
    summary:
      'Adds shillings (at most two decimals) to a channel. While the channel’s funding over the last 24 hours stays within FUNDING_APPROVAL_THRESHOLD it applies at once; past it, it waits for another admin.',
    input: z.object({ account: id, channel, amount: z.union([z.string(), z.number()]) }),
    answer: answerOf<FundingOutcome>(),
    access: 'change',
    reauthenticate: true,
    cli: [
      {
        command: 'channel fund',
        summary:
          'adds money to a channel; past FUNDING_APPROVAL_THRESHOLD a day, it waits for an admin’s approval in the console',
        json: (outcome, input) => ({ account: input.account, channel: input.channel, ...outcome }),
        human: (outcome, input) =>
          outcome.state === 'awaiting_approval'
            ? `Funding ${String(input.amount)} to ${input.channel} of ${input.account} is above FUNDING_APPROVAL_THRESHOLD: request ${outcome.request.id} waits for another admin's approval in the console.`
            : `Funded ${input.channel} of ${input.account}; available balance KES ${outcome.available}.`,
      },
    ],
  }),
  list_funding_requests: operatorFunction({
    summary: 'Every funding request awaiting approval, then the 50 decided last.',
    input: z.object({}),
    answer: answerOf<{ requests: FundingRequestView[] }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'funding list',
        summary: 'funding requests awaiting approval, then the latest decided',
        json: ({ requests }) => requests,
        human: ({ requests }) =>
          pageLines(
            requests.map(
              (r) =>
                `${r.id}  ${r.state.padEnd(17)}  ${r.account}  ${r.channel}  KES ${r.amount}  by ${r.requested_by}`,
            ),
            'No funding requests.',
          ),
      },
    ],
  }),
  approve_funding: operatorFunction({
    summary:
      'Approves and credits a funding request, in one transaction: by a signed-in admin other than the one who asked, whose account existed before the request.',
    input: z.object({ request_id: id }),
    answer: answerOf<{ request: FundingRequestView; available: string }>(),
    access: 'change',
    reauthenticate: true,
    cli: [],
  }),
  reject_funding: operatorFunction({
    summary: 'Rejects a funding request; never by the operator who asked.',
    input: z.object({ request_id: id }),
    answer: answerOf<{ request: FundingRequestView }>(),
    access: 'change',
    reauthenticate: false,
    cli: [
      {
        command: 'funding reject',
        summary: 'rejects a funding request (approving is for an admin in the console)',
        options: { request_id: 'request' },
        human: ({ request }) => `Funding request ${request.id} is ${request.state}.`,
      },
    ],
  }),
};
