// `send_agent_float`: reserve the amount from the caller's Agent Float channel, submit, answer.

import { successMessages } from '@topup/envelope';
import type { SendAgentFloatRequest } from '@topup/validation';
import { transactionHandler } from './transaction-operation.js';

export const sendAgentFloat = transactionHandler<SendAgentFloatRequest>({
  name: 'send_agent_float',
  requestedMessage: successMessages.agentFloatRequested,
  channel: 'float',
  networks: (request) => [request.network],
  reserve: (deps, accountId, request, idempotency, signal) =>
    deps.ledger.requestAgentFloat({
      accountId,
      request,
      ...(idempotency === undefined ? {} : { idempotency }),
      signal,
    }),
});
