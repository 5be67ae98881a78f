// Daraja's pushed results as the server receives them at `/providers/daraja/<token>/<event>`:
// `result` (an initiator call's Result: a B2B payment's or a reversal's own, or a Transaction Status
// query's), `timeout` (Safaricom's queue gave up on a call, which says nothing of its outcome) and `stk` (a
// payment prompt's callback). Results name a call by its ConversationID and callbacks a prompt by its
// CheckoutRequestID only, so they are read into reports the worker matches to the ids the adapter recorded
// on acknowledgement. Daraja does not sign its calls and does not retry them; each is answered 200 once
// stored, and a repeat (same ConversationID or CheckoutRequestID) is stored once.

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
import { parseStkCallback } from './stk-callback.js';

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
      // The query's own ResultCode is its success (0); the call's decline code is not in the answer, so
      // M-Pesa's receipt of the failed call names it, when there is one.
      providerCode: result.parameters.get('ReceiptNo') ?? '',
      reason: DARAJA_DECLINED,
    };
  }
  return `the call it asked about is ${status === '' ? 'of no known status' : status.toLowerCase()}`;
}

/**
 * A reversal's R000001: the payment was reversed already, so the money is back with the payer and the
 * refund is done (only reversals end so). Its TransactionID is a placeholder, so its code stands in for a
 * receipt.
 */
const ALREADY_REVERSED = 'R000001';

/** A call's own Result: done on 0 (or a reversal's already-reversed), declined on any other code. */
function callReport(result: InitiatorResult, id: string): ProviderReport {
  const done = result.resultCode === '0' || result.resultCode === ALREADY_REVERSED;
  return {
    id: `result:${id}`,
    providerId: id,
    about: 'submission',
    outcome: done ? 'completed' : 'declined',
    providerCode: result.resultCode === '0' ? result.transactionId : result.resultCode,
    reason: done ? '' : DARAJA_DECLINED,
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
 * A prompt's callback: paid, with the M-Pesa receipt as its code (a refund reverses that receipt), or
 * declined with the result code and the reason the payer is told.
 */
function parseStk(call: WebhookCall): WebhookEvent {
  const read = parseStkCallback(parsedJson(call.body));
  if (!read.ok) return { kind: 'garbled', problem: read.problem };
  const { checkoutRequestId, outcome, receipt, resultCode } = read.callback;
  const id = `stk:${checkoutRequestId}`;
  return {
    kind: 'reports',
    eventId: id,
    reports: [
      {
        id,
        providerId: checkoutRequestId,
        about: 'submission',
        outcome: outcome.kind === 'paid' ? 'completed' : 'declined',
        providerCode: outcome.kind === 'paid' ? receipt : resultCode,
        reason: outcome.kind === 'paid' ? '' : outcome.reason,
      },
    ],
  };
}

/**
 * Reads and answers Daraja's initiator Results, payment prompts' callbacks and queue timeouts.
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
    if (call.event === 'stk') return parseStk(call);
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
