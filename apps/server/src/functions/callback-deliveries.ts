// Callback delivery functions: resend a transaction's callbacks, or every failed delivery since a time,
// and list deliveries a page at a time with every attempt: what each receiver answered (the first 20 KB),
// or why no answer came, and when the next attempt is due.

import { success, successMessages } from '@topup/envelope';
import type { CallbackDeliveryView } from '@topup/envelope';
import type { DeliveryRecord } from '@topup/ledger';
import { invalid } from '@topup/validation';
import type {
  ListCallbackDeliveriesRequest,
  ResendCallbackRequest,
  ResendFailedCallbacksRequest,
} from '@topup/validation';
import { ApiFailure } from '../api-failure.js';
import type { ApiHandler } from './api-function.js';
import { ok } from './api-function.js';

// XML 1.0 cannot carry these characters at all; a receiver's answer may hold any of them.
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text a receiver wrote, shown the same in JSON and XML: characters XML cannot carry become U+FFFD. */
export function receiverText(text: string): string {
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

export const resendFailedCallbacks: ApiHandler<ResendFailedCallbacksRequest> = async ({
  deps,
  account,
  input,
}) => {
  const resend = await deps.ledger.resendFailedCallbacks(account.id, {
    since: input.since,
    ...(input.endpoint_id === undefined ? {} : { endpointId: input.endpoint_id }),
  });
  if (resend.kind === 'endpoint_not_found') throw new ApiFailure('3000', [invalid('endpoint_id')]);
  // Unlike resend_callback, finding nothing to queue is an answer: nothing failed since then.
  return ok(
    success(successMessages.failedCallbacksResent, {
      resend: {
        since: resend.since.toISOString(),
        endpoint_id: input.endpoint_id ?? '',
        queued: String(resend.queued),
        more: String(resend.more),
      },
    }),
  );
};

export const listCallbackDeliveries: ApiHandler<ListCallbackDeliveriesRequest> = async ({
  deps,
  account,
  input,
}) => {
  const page = await deps.ledger.listDeliveryPage(account.id, {
    reference: input.reference,
    status: input.status,
    endpointId: input.endpoint_id,
    from: input.from,
    to: input.to,
    limit: input.limit,
    cursor: input.cursor,
  });
  return ok(
    success(successMessages.callbackDeliveriesFound, {
      deliveries: page.deliveries.map(deliveryView),
      next_cursor: page.nextCursor,
    }),
  );
};
