// How callback endpoints and deliveries read on the wire (`list_callback_endpoints`,
// `list_callback_deliveries`) and to operators: plain strings, ISO times, never a secret, and a receiver's
// own text made safe for JSON and XML alike.

import type { CallbackDeliveryView, CallbackEndpointView } from '@topup/envelope';
import type { CallbackEndpoint } from './callback-endpoints.js';
import type { DeliveryRecord } from './callback-outbox.js';

// XML 1.0 cannot carry these characters at all; a receiver's answer may hold any of them.
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/**
 * Text a receiver wrote, shown the same in JSON and XML: characters XML cannot carry become U+FFFD.
 *
 * @example
 * ```ts
 * import { receiverText } from '@topup/ledger';
 *
 * receiverText('ok\u0000'); // 'ok\uFFFD'
 * ```
 */
export function receiverText(text: string): string {
  return text.replace(notXmlChar, '\uFFFD');
}

/**
 * An endpoint as `list_callback_endpoints` shows it: never its secret.
 *
 * @example
 * ```ts
 * import { callbackEndpointView, createLedger, openStore } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * const { endpoint } = await ledger.addCallbackEndpoint(account.id, { url: 'https://duka.example/hooks', format: 'json' });
 * callbackEndpointView(endpoint).enabled; // 'true'
 * ```
 */
export function callbackEndpointView(endpoint: CallbackEndpoint): CallbackEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    format: endpoint.format,
    description: endpoint.description,
    enabled: String(endpoint.enabled),
    disabled_reason: endpoint.disabledReason,
    created: endpoint.createdAt.toISOString(),
  };
}

/**
 * A delivery with every attempt as `list_callback_deliveries` shows it: what each receiver answered, or
 * why no answer came, and when the next attempt is due.
 *
 * @example
 * ```ts
 * import { callbackDeliveryView, createLedger, openStore } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * const page = await ledger.listDeliveryPage(account.id);
 * page.deliveries.map(callbackDeliveryView); // []
 * ```
 */
export function callbackDeliveryView(delivery: DeliveryRecord): CallbackDeliveryView {
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
