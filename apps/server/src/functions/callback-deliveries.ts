// Callback delivery functions: resend a transaction's callbacks, and list deliveries with every attempt.

import { success, successMessages } from '@topup/envelope';
import type { CallbackDeliveryView } from '@topup/envelope';
import type { DeliveryRecord } from '@topup/ledger';
import { invalid } from '@topup/validation';
import type { ListCallbackDeliveriesRequest, ResendCallbackRequest } from '@topup/validation';
import { ApiFailure } from '../api-failure.js';
import type { ApiHandler } from './api-function.js';
import { ok } from './api-function.js';

function deliveryView(delivery: DeliveryRecord): CallbackDeliveryView {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId,
    reference: delivery.reference,
    status: delivery.status,
    attempts: delivery.attempts.map((attempt) => ({
      attempted: attempt.attemptedAt.toISOString(),
      http_status: attempt.httpStatus === undefined ? '' : String(attempt.httpStatus),
      duration_ms: String(attempt.durationMs),
      outcome: attempt.outcome,
    })),
  };
}

export const resendCallback: ApiHandler<ResendCallbackRequest> = async ({ deps, account, input }) => {
  const transaction = await deps.ledger.getTransaction(account.id, input.reference);
  if (transaction === undefined) throw new ApiFailure('3000', [invalid('reference')]);
  const count = await deps.ledger.resendCallbacks(account.id, input.reference, input.endpoint_id);
  if (count === 0) {
    const problem = input.endpoint_id === undefined ? invalid('reference') : invalid('endpoint_id');
    throw new ApiFailure('3000', [problem]);
  }
  return ok(
    success(successMessages.callbackResent, {
      resend: { reference: input.reference, queued: String(count) },
    }),
  );
};

export const listCallbackDeliveries: ApiHandler<ListCallbackDeliveriesRequest> = async ({
  deps,
  account,
  input,
}) => {
  const deliveries = await deps.ledger.listDeliveries(account.id, {
    ...(input.reference === undefined ? {} : { reference: input.reference }),
    ...(input.status === undefined ? {} : { status: input.status }),
  });
  return ok(success(successMessages.callbackDeliveriesFound, { deliveries: deliveries.map(deliveryView) }));
};
