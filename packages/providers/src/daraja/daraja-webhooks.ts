// Daraja's pushed results as the server receives them at `/providers/daraja/<token>/<event>`:
// `result` (an initiator call's Result: a B2B payment's or a reversal's own, or a Transaction Status
// query's), `timeout` (Safaricom's queue gave up on a call, which says nothing of its outcome) and `stk` (a
// payment prompt's callback). Results name a call by its ConversationID and callbacks a prompt by its
// CheckoutRequestID only, so they are read into reports the worker matches to the ids the adapter recorded
// on acknowledgement, each with the evidence its message gives of what moved (amount, phone, party) for the
// ledger to compare with what was asked. Only a documented code settles anything (stk-result-codes.ts,
// initiator-result-codes.ts); any other is stored as ignored, and the query path asks again. Daraja does
// not sign its calls and does not retry them; each is answered 200 once stored. A repeat (the same
// ConversationID or CheckoutRequestID with the same result code) is stored once; a different word about
// the same call (a paid callback after a declined one) is another event, kept so the ledger can put the
// contradiction to an operator rather than have it dropped at the door as a repeat.

import { createHash } from 'node:crypto';
import { minorUnitsOf } from '../minor-units.js';
import type {
  ProviderReport,
  ResultEvidence,
  WebhookCall,
  WebhookEvent,
  WebhookReceiver,
  WebhookReply,
} from '../provider.js';
import { parsedJson } from '../tolerant-json.js';
import { parseInitiatorResult, type InitiatorResult } from './initiator-result.js';
import { initiatorOutcome } from './initiator-result-codes.js';
import { parseStkCallback } from './stk-callback.js';

/** The reason a caller reads when M-Pesa declined the float; the result code goes with it. */
export const DARAJA_DECLINED = 'declined by M-Pesa';

function digestOf(body: string): string {
  return createHash('sha256').update(body).digest('hex').slice(0, 32);
}

/**
 * A party as Daraja names one in a Result (`600000 - saf test org`, `000000– Biller Company`, `254708374149
 * - John Doe`): its short code, till or store number (up to 7 digits), or its phone number (longer, or
 * masked with `*`). Undefined when the name starts with neither.
 */
function partyOf(name: string | undefined): ResultEvidence {
  const code = /^\s*\+?([\d*]+)(?:\s*[-–]|\s*$)/.exec(name ?? '')?.[1];
  if (code === undefined) return {};
  return code.length <= 7 && !code.includes('*') ? { partyCode: code } : { mobile: code };
}

/** What a Result's parameters say was moved: the amount, and the party named by `partyKey`. */
function evidenceOf(result: InitiatorResult, partyKey?: string): ResultEvidence | undefined {
  const amountMinor = minorUnitsOf(result.parameters.get('Amount'));
  const evidence: ResultEvidence = {
    ...(amountMinor === undefined ? {} : { amountMinor }),
    ...(partyKey === undefined ? {} : partyOf(result.parameters.get(partyKey))),
  };
  return Object.keys(evidence).length === 0 ? undefined : evidence;
}

/** A report with its evidence, when the message tells any. */
function withEvidence(report: ProviderReport, evidence: ResultEvidence | undefined): ProviderReport {
  return evidence === undefined ? report : { ...report, evidence };
}

/**
 * What a Transaction Status Result says of the call it asked about: paid, failed, or nothing yet (still
 * pending, or the query itself failed: an unknown receipt is 2032, which is no proof the call failed). Its
 * evidence is the amount and the credited party (the agent's store for a B2B, the payer for a reversal).
 */
function statusReport(result: InitiatorResult, id: string): ProviderReport | string {
  const status = result.parameters.get('TransactionStatus') ?? '';
  if (result.resultCode !== '0') return `the status query failed with ${result.resultCode}`;
  const evidence = evidenceOf(result, 'CreditPartyName');
  if (status === 'Completed') {
    return withEvidence(
      {
        id: `result:${id}`,
        providerId: id,
        about: 'status',
        outcome: 'completed',
        providerCode: result.parameters.get('ReceiptNo') ?? result.transactionId,
        reason: '',
      },
      evidence,
    );
  }
  if (status === 'Failed') {
    return withEvidence(
      {
        id: `result:${id}`,
        providerId: id,
        about: 'status',
        outcome: 'declined',
        // The query's own ResultCode is its success (0); the call's decline code is not in the answer, so
        // M-Pesa's receipt of the failed call names it, when there is one.
        providerCode: result.parameters.get('ReceiptNo') ?? '',
        reason: DARAJA_DECLINED,
      },
      evidence,
    );
  }
  return `the call it asked about is ${status === '' ? 'of no known status' : status.toLowerCase()}`;
}

/**
 * A call's own Result, as the one table of initiator result codes reads its code: done on 0 (or a
 * reversal's already-reversed, whose TransactionID is a placeholder, so its code stands in for a receipt),
 * declined on a final code, and nothing to apply on any other: the call stays unknown until Transaction
 * Status answers. A B2B Result's evidence is its Amount and the receiver's store number, a reversal's its
 * Amount.
 */
function callReport(result: InitiatorResult, id: string): ProviderReport | string {
  const outcome = initiatorOutcome(result.resultCode);
  if (outcome === 'unknown') {
    return `M-Pesa result ${result.resultCode} (${result.resultDesc || 'no description'}) does not say whether the call moved money; Transaction Status will be asked`;
  }
  return withEvidence(
    {
      id: `result:${id}`,
      providerId: id,
      about: 'submission',
      outcome: outcome === 'done' ? 'completed' : 'declined',
      providerCode: result.resultCode === '0' ? result.transactionId : result.resultCode,
      reason: outcome === 'done' ? '' : DARAJA_DECLINED,
    },
    evidenceOf(result, 'ReceiverPartyPublicName'),
  );
}

function parseResult(call: WebhookCall): WebhookEvent {
  const read = parseInitiatorResult(parsedJson(call.body));
  if (!read.ok) return { kind: 'garbled', problem: read.problem };
  const { result } = read;
  const id = result.conversationId === '' ? result.originatorConversationId : result.conversationId;
  // A status query's Result carries TransactionStatus when it succeeded; one that failed carries nothing,
  // and reads like a call's own Result: the worker tells them apart by what the id was recorded for.
  const report = result.parameters.has('TransactionStatus')
    ? statusReport(result, id)
    : callReport(result, id);
  // Kept under its code, so that a later Result about the same call saying otherwise is not taken for a
  // repeat of this one.
  const eventId = `result:${id}:${result.resultCode}`;
  if (typeof report === 'string') return { kind: 'ignored', eventId, why: report };
  return { kind: 'reports', eventId, reports: [report] };
}

/**
 * A prompt's callback: paid, with the M-Pesa receipt as its code (a refund reverses that receipt) and the
 * Amount and PhoneNumber as evidence; declined on a final code, with the code and the reason the payer is
 * told. A code Daraja does not document settles nothing: the callback is stored as ignored and the
 * payment leg's scheduled STK Query asks again. Every callback is stored under its prompt and its code.
 */
function parseStk(call: WebhookCall): WebhookEvent {
  const read = parseStkCallback(parsedJson(call.body));
  if (!read.ok) return { kind: 'garbled', problem: read.problem };
  const { checkoutRequestId, outcome, receipt, resultCode, resultDesc, amountMinor, mobile } = read.callback;
  const id = `stk:${checkoutRequestId}`;
  // Kept under its code, so that a later callback about the prompt saying otherwise (paid after declined)
  // is not taken for a repeat of this one.
  const eventId = `${id}:${resultCode}`;
  if (outcome.kind === 'unknown') {
    return {
      kind: 'ignored',
      eventId,
      why: `${outcome.reason}${resultDesc === '' ? '' : ` (${resultDesc})`}; STK Query will ask about ${checkoutRequestId} again`,
    };
  }
  const evidence: ResultEvidence = {
    ...(amountMinor === undefined ? {} : { amountMinor }),
    ...(mobile === undefined ? {} : { mobile }),
  };
  const report: ProviderReport = {
    id,
    providerId: checkoutRequestId,
    about: 'submission',
    outcome: outcome.kind === 'paid' ? 'completed' : 'declined',
    providerCode: outcome.kind === 'paid' ? receipt : resultCode,
    reason: outcome.kind === 'paid' ? '' : outcome.reason,
  };
  return {
    kind: 'reports',
    eventId,
    reports: [withEvidence(report, Object.keys(evidence).length === 0 ? undefined : evidence)],
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
