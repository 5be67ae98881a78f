// Daraja's pushed results as the server receives them at `/providers/daraja/<token>/<event>`:
// `result` (an initiator call's Result: a B2B payment's own, or a Transaction Status query's) and `timeout`
// (Safaricom's queue gave up on a call, which says nothing of its outcome). Results name a call by its
// ConversationID only, so they are read into reports the worker matches to the ids the adapter recorded
// on acknowledgement. Daraja does not sign its calls and does not retry them; each is answered 200 once
// stored, and a repeat (same ConversationID) is stored once.

import { createHash } from 'node:crypto';
import type {
  ProviderReport,
  WebhookCall,
  WebhookEvent,
  WebhookReceiver,
  WebhookReply,
} from '../provider.js';
import { parsedJson } from '../tolerant-json.js';
import { parseInitiatorResult, type InitiatorResult } from './initiator-result.js';

/** The reason a caller reads when M-Pesa declined the float; the result code goes with it. */
export const DARAJA_DECLINED = 'declined by M-Pesa';

function digestOf(body: string): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 32);
}

/**
 * What a Transaction Status Result says of the call it asked about: paid, failed, or nothing yet (still
 * pending, or the query itself failed: an unknown receipt is 2032, which is no proof the call failed).
 */
function statusReport(result: InitiatorResult, id: string): ProviderReport | string {
  const status = result.parameters.get('TransactionStatus') ?? '';
  if (result.resultCode !== '0') return `the status query failed with ${result.resultCode}`;
  if (status === 'Completed') {
    return {
      id: `result:${id}`,
      providerId: id,
      about: 'status',
      outcome: 'completed',
      providerCode: result.parameters.get('ReceiptNo') ?? result.transactionId,
      reason: '',
    };
  }
  if (status === 'Failed') {
    return {
      id: `result:${id}`,
      providerId: id,
      about: 'status',
      outcome: 'declined',
      providerCode: result.resultCode,
      reason: DARAJA_DECLINED,
    };
  }
  return `the call it asked about is ${status === '' ? 'of no known status' : status.toLowerCase()}`;
}

/** A call's own Result: paid on 0, declined on any other code. */
function callReport(result: InitiatorResult, id: string): ProviderReport {
  const paid = result.resultCode === '0';
  return {
    id: `result:${id}`,
    providerId: id,
    about: 'submission',
    outcome: paid ? 'completed' : 'declined',
    providerCode: paid ? result.transactionId : result.resultCode,
    reason: paid ? '' : DARAJA_DECLINED,
  };
}

function parseResult(call: WebhookCall): WebhookEvent {
  const read = parseInitiatorResult(parsedJson(call.body));
  if (!read.ok) return { kind: 'garbled', problem: read.problem };
  const { result } = read;
  const id = result.conversationId === '' ? result.originatorConversationId : result.conversationId;
  const eventId = `result:${id}`;
  // A status query's Result carries TransactionStatus when it succeeded; one that failed carries nothing,
  // and reads like a failed call: the worker tells them apart by what the id was recorded for.
  const report = result.parameters.has('TransactionStatus')
    ? statusReport(result, id)
    : callReport(result, id);
  if (typeof report === 'string') return { kind: 'ignored', eventId, why: report };
  return { kind: 'reports', eventId, reports: [report] };
}

/**
 * Reads and answers Daraja's initiator Results and queue timeouts.
 *
 * @example
 * ```ts
 * import { darajaWebhooks } from '@topup/providers';
 *
 * const event = darajaWebhooks.parse({ event: 'timeout', contentType: 'application/json', body: '{}' });
 * event.kind; // 'ignored'
 * ```
 */
export const darajaWebhooks: WebhookReceiver = {
  parse(call: WebhookCall): WebhookEvent {
    if (call.event === 'result') return parseResult(call);
    const eventId = `${call.event}:${digestOf(call.body)}`;
    if (call.event === 'timeout') {
      return {
        kind: 'ignored',
        eventId,
        why: 'Daraja’s queue timed out on a call; its outcome is unknown until a status query settles it',
      };
    }
    return { kind: 'ignored', eventId, why: `no such event: ${call.event}` };
  },
  reply(event: WebhookEvent): WebhookReply {
    if (event.kind === 'garbled') {
      return {
        status: 400,
        contentType: 'application/json',
        body: JSON.stringify({ ResultCode: 1, ResultDesc: event.problem }),
      };
    }
    return {
      status: 200,
      contentType: 'application/json',
      body: '{"ResultCode":0,"ResultDesc":"Accepted"}',
    };
  },
};
