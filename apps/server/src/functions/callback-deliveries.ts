// Callback delivery functions: resend a transaction's callbacks, and list deliveries with every attempt:
// what each receiver answered (the first 20 KB), or why no answer came, and when the next attempt is due.

import { success, successMessages } from '@topup/envelope';
import type { CallbackDeliveryView } from '@topup/envelope';
import type { DeliveryRecord } from '@topup/ledger';
import { invalid } from '@topup/validation';
import type { ListCallbackDeliveriesRequest, ResendCallbackRequest } from '@topup/validation';
import { ApiFailure } from '../api-failure.js';
import type { ApiHandler } from './api-function.js';
import { ok } from './api-function.js';

// XML 1.0 cannot carry these characters at all; a receiver's answer may hold any of them.
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text a receiver wrote, shown the same in JSON and XML: characters XML cannot carry become U+FFFD. */
function receiverText(text: string): string {
  return text.replace(notXmlChar, '\uFFFD');
}

export function deliveryView(delivery: DeliveryRecord): CallbackDeliveryView {
  return {
    id: delivery.id,
    endpoint_id: delivery.endpointId,
    reference: delivery.reference,
    status: delivery.status,
    created: delivery.createdAt.toISOString(),
    next_attempt: delivery.status === 'pending' ? delivery.nextAttemptAt.toISOString() : '',
    delivered: delivery.status === 'delivered' ? (delivery.deliveredAt?.toISOString() ?? '') : '',
    last_error: receiverText(delivery.lastError),
    attempts: delivery.attempts.map((attempt) => ({
      attempted: attempt.attemptedAt.toISOString(),
      http_status: attempt.httpStatus === undefined ? '' : String(attempt.httpStatus),
      duration_ms: String(attempt.durationMs),
      outcome: attempt.outcome,
      response_excerpt: receiverText(attempt.responseExcerpt),
      error: receiverText(attempt.error ?? ''),
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
