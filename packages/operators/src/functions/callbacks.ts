// What the callback functions of the catalog do: an account's endpoints under the API's URL policy, a
// transaction's callback sent again, deliveries with their attempts, and the endpoints falling behind.

import {
  callbackDeliveryView,
  callbackEndpointView,
  LedgerError,
  type TransactionRecord,
} from '@topup/ledger';
import { deliveryMonitor } from '../delivery-monitor.js';
import { OperatorError } from '../operator-error.js';
import { accountOrFail } from './accounts.js';
import type { Implementations } from './implementation.js';

function endpointNotFound(account: string, endpoint: string): OperatorError {
  return new OperatorError(
    'not_found',
    `No callback endpoint ${endpoint} on account ${account}.`,
    [],
    'endpoint_not_found',
  );
}

/** Why a transaction that exists had no callback to queue. */
function nothingResent(
  account: string,
  transaction: TransactionRecord,
  endpoint: string | undefined,
): OperatorError {
  const { reference } = transaction;
  if (transaction.state === 'requested')
    return new OperatorError(
      'conflict',
      `Transaction ${reference} has not completed or been cancelled yet, so it has no callback to resend.`,
      [],
      'nothing_to_resend',
    );
  if (endpoint !== undefined)
    return new OperatorError(
      'not_found',
      `No enabled callback endpoint ${endpoint} on account ${account} to resend ${reference} to.`,
      [],
      'endpoint_not_found',
    );
  return new OperatorError(
    'conflict',
    `Account ${account} has no enabled callback endpoint to resend ${reference} to.`,
    [],
    'nothing_to_resend',
  );
}

export const callbackImplementations: Implementations<
  | 'add_callback_endpoint'
  | 'list_callback_endpoints'
  | 'remove_callback_endpoint'
  | 'rotate_callback_secret'
  | 'resend_callback'
  | 'list_callback_deliveries'
  | 'delivery_monitor'
> = {
  async add_callback_endpoint({ ledger, callbacks, audited }, input) {
    // The policy add_callback_endpoint applies; it is checked again at every delivery.
    const problem = await callbacks.urlProblem(input.url);
    if (problem !== undefined)
      throw new OperatorError('invalid', `'url is invalid': ${problem}`, [`url: ${problem}`], 'url_refused');
    const { endpoint, secret } = await ledger
      .addCallbackEndpoint(
        input.account,
        {
          url: input.url,
          format: input.format,
          ...(input.description === undefined ? {} : { description: input.description }),
        },
        {
          maxEndpoints: callbacks.maxEndpoints,
          ...audited((added) => ({ target: input.account, after: callbackEndpointView(added) })),
        },
      )
      .catch((error: unknown) => {
        if (error instanceof LedgerError && error.code === 'endpoint_limit_reached')
          throw new OperatorError('conflict', error.message, [], error.code);
        throw error;
      });
    return { endpoint: callbackEndpointView(endpoint), secret };
  },
  async list_callback_endpoints({ ledger }, input) {
    await accountOrFail(ledger, input.account);
    return { endpoints: (await ledger.listCallbackEndpoints(input.account)).map(callbackEndpointView) };
  },
  async remove_callback_endpoint({ ledger, audited }, input) {
    const removed = await ledger.removeCallbackEndpoint(
      input.account,
      input.endpoint_id,
      audited(({ endpointId }) => ({
        target: input.account,
        after: { endpoint_id: endpointId, removed: true },
      })),
    );
    if (!removed) throw endpointNotFound(input.account, input.endpoint_id);
    return { endpoint_id: input.endpoint_id, removed };
  },
  async rotate_callback_secret({ ledger, callbacks, audited }, input) {
    const secret = await ledger.rotateCallbackSecret(
      input.account,
      input.endpoint_id,
      callbacks.secretGraceSeconds,
      audited(({ endpointId }) => ({
        target: input.account,
        after: { endpoint_id: endpointId, rotated: true },
      })),
    );
    if (secret === undefined) throw endpointNotFound(input.account, input.endpoint_id);
    return {
      endpoint_id: input.endpoint_id,
      secret,
      previous_secret_valid_for: callbacks.secretGraceSeconds,
    };
  },
  async resend_callback({ ledger, audited }, input) {
    // As resend_callback answers 3000: queueing nothing is never a success.
    const transaction = await ledger.getTransaction(input.account, input.reference);
    if (transaction === undefined)
      throw new OperatorError(
        'not_found',
        `No transaction ${input.reference} on account ${input.account}.`,
        [],
        'transaction_not_found',
      );
    const deliveries = await ledger.resendCallbacks(
      input.account,
      input.reference,
      input.endpoint_id,
      audited((queued) => ({
        target: input.account,
        after: { reference: input.reference, endpoint_id: input.endpoint_id ?? '', queued },
      })),
    );
    if (deliveries === 0) throw nothingResent(input.account, transaction, input.endpoint_id);
    return { reference: input.reference, deliveries };
  },
  async list_callback_deliveries({ ledger }, input) {
    await accountOrFail(ledger, input.account);
    const deliveries = await ledger.listDeliveries(input.account, {
      ...(input.reference === undefined || input.reference === '' ? {} : { reference: input.reference }),
      ...(input.status === undefined ? {} : { status: input.status }),
    });
    return { deliveries: deliveries.map(callbackDeliveryView) };
  },
  async delivery_monitor({ store, now }) {
    return { endpoints: await deliveryMonitor(store, now()) };
  },
};
