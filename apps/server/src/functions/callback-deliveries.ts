// Callback delivery functions: resend a transaction's callbacks, or every failed delivery since a time,
// and list deliveries a page at a time with every attempt: what each receiver answered (the first 20 KB),
// or why no answer came, and when the next attempt is due.

import { success, successMessages } from '@topup/envelope';
import { callbackDeliveryView } from '@topup/ledger';
import { invalid } from '@topup/validation';
import type {
  ListCallbackDeliveriesRequest,
  ResendCallbackRequest,
  ResendFailedCallbacksRequest,
} from '@topup/validation';
import { ApiFailure } from '../api-failure.js';
import type { ApiHandler } from './api-function.js';
import { ok } from './api-function.js';

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
      deliveries: page.deliveries.map(callbackDeliveryView),
      next_cursor: page.nextCursor,
    }),
  );
};
