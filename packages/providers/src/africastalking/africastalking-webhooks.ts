// Africa's Talking's pushed results as the server receives them at `/providers/africastalking/<token>/<event>`:
// `airtime-status`, the status callback the AT dashboard is pointed at, which says whether the carrier
// credited a send. It names the send only by AT's requestId, so it is read into a report the worker
// matches to the id recorded when AT acknowledged the delivery leg, with the number and value it names as
// evidence for the ledger to compare with the purchase. The event id carries the status as
// well as the requestId, so a repeated callback is stored once while a different word about the same send
// (which AT should never give) is kept, not silently dropped.

import { createHash } from 'node:crypto';
import type { WebhookCall, WebhookEvent, WebhookReceiver, WebhookReply } from '../provider.js';
import { airtimeEvidence } from './airtime-evidence.js';
import { parseAirtimeStatusCallback } from './airtime-status-callback.js';

/**
 * The reason a caller reads when the carrier did not credit the airtime and AT gave no description.
 *
 * @example
 * ```ts
 * import { AFRICASTALKING_UNDELIVERED, africastalkingWebhooks } from '@topup/providers';
 *
 * const event = africastalkingWebhooks.parse({ event: 'airtime-status', contentType: '', body: 'requestId=ATQid_1&status=Failed' });
 * if (event.kind === 'reports') event.reports[0]?.reason === AFRICASTALKING_UNDELIVERED; // true
 * ```
 */
export const AFRICASTALKING_UNDELIVERED = 'the carrier did not deliver the airtime';

function digestOf(body: string): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 32);
}

function parseStatus(call: WebhookCall): WebhookEvent {
  const read = parseAirtimeStatusCallback(call.contentType, call.body);
  if (!read.ok) return { kind: 'garbled', problem: read.problem };
  const { requestId, delivered, description, phoneNumber, value } = read.status;
  const id = `airtime-status:${requestId}:${delivered ? 'Success' : 'Failed'}`;
  const evidence = airtimeEvidence(phoneNumber, value);
  return {
    kind: 'reports',
    eventId: id,
    reports: [
      {
        id,
        providerId: requestId,
        about: 'submission',
        outcome: delivered ? 'completed' : 'declined',
        providerCode: requestId,
        reason: delivered ? '' : description || AFRICASTALKING_UNDELIVERED,
        ...(evidence === undefined ? {} : { evidence }),
      },
    ],
  };
}

/**
 * Reads and answers Africa's Talking's airtime status callbacks.
 *
 * @example
 * ```ts
 * import { africastalkingWebhooks } from '@topup/providers';
 *
 * const event = africastalkingWebhooks.parse({
 *   event: 'airtime-status',
 *   contentType: 'application/x-www-form-urlencoded',
 *   body: 'requestId=ATQid_1&status=Success&phoneNumber=%2B254711082300',
 * });
 * event.kind; // 'reports'
 * ```
 */
export const africastalkingWebhooks: WebhookReceiver = {
  parse(call: WebhookCall): WebhookEvent {
    if (call.event === 'airtime-status') return parseStatus(call);
    return {
      kind: 'ignored',
      eventId: `${call.event}:${digestOf(call.body)}`,
      why: `no such event: ${call.event}`,
    };
  },
  reply(event: WebhookEvent): WebhookReply {
    if (event.kind === 'garbled') {
      return {
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ status: 'error', problem: event.problem }),
      };
    }
    return { status: 200, contentType: 'application/json', body: '{"status":"ok"}' };
  },
};
