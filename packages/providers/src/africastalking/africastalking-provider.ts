// Africa's Talking as a provider: it carries airtime deliveries, a purchase's once the payer's money network
// has taken the payment, or airtime sent from the caller's balance as the whole transaction, and nothing
// else (no payment, no float, no refund). AT does not replay a repeated send: within its window a repeat
// of the same Idempotency-Key (the delivery leg's id) is refused as a duplicate, and after it the repeat is
// a new send; the same number and amount within five minutes is refused as a duplicate too. So a send is
// made once (`idempotentSubmissions: false`): it is claimed in the store before it is made, only the
// claimant makes it, and a duplicate answer means "taken, outcome unknown", to be asked about, never a
// refusal. A send that surely never left (the connection was refused) gives its claim up.
//
// AT's acknowledgement gives a requestId, recorded under the leg id (a purchase's) or the bare reference
// (a send's, whose results then speak for the whole transaction): the status callback names the send by it
// alone, and the transaction query asks by it. A send never claimed is `not_found`; one claimed with no
// requestId recorded may have been taken, so asking about it fails (unknown) rather than say `not_found`.

import { legId, type Store, type TransactionRecord } from '@topup/ledger';
import type { LegOrder, Provider, ProviderStatus, SubmitResult } from '../provider.js';
import { providerTablesReady } from '../provider-migrations.js';
import { createSubmissionBatches } from '../submission-batches.js';
import { attemptRecorded, forgetAttempt, submissionIdOf, type CallClaim } from '../submission-ids.js';
import { callAfricasTalking, type AfricasTalkingEndpoint } from './africastalking-client.js';
import { AFRICASTALKING_UNDELIVERED, africastalkingWebhooks } from './africastalking-webhooks.js';
import { airtimeQueryRequest, readAirtimeQueryAnswer } from './airtime-query.js';
import { airtimeSendRequest, readAirtimeSendAnswer } from './airtime-send.js';

/**
 * What the Africa's Talking provider is made from: the app's username and apiKey, where AT is and how
 * long to wait for it, and the store its acknowledged requestIds are recorded in.
 *
 * @example
 * ```ts
 * import type { AfricasTalkingProviderOptions } from '@topup/providers';
 *
 * const options: Omit<AfricasTalkingProviderOptions, 'store'> = {
 *   baseUrl: 'https://api.africastalking.com', username: 'topup', apiKey: 'at-key', timeoutMs: 8_000,
 * };
 * ```
 */
export interface AfricasTalkingProviderOptions {
  readonly store: Store;
  /** `https://api.africastalking.com`, `https://api.sandbox.africastalking.com`, or a fake on loopback. */
  readonly baseUrl: string;
  readonly username: string;
  readonly apiKey: string;
  /** Longest wait for one answer. */
  readonly timeoutMs: number;
  /**
   * Told when AT refuses a send because the airtime wallet cannot pay for it: the wallet needs funding
   * before any more airtime goes out (the service counts it and logs it at error).
   */
  readonly onWalletLow?: (refusal: AfricasTalkingRefusal) => void;
  /** Told of each send AT took, with the discount AT gave on it (the service logs it). */
  readonly onSent?: (sent: AfricasTalkingSend) => void;
  readonly now?: () => Date;
}

/**
 * A send AT refused, as `onWalletLow` is told it: what was sent under which key, and AT's words.
 *
 * @example
 * ```ts
 * import type { AfricasTalkingRefusal } from '@topup/providers';
 *
 * const log = (refusal: AfricasTalkingRefusal) => console.error(`${refusal.reference}: ${refusal.reason}`);
 * ```
 */
export interface AfricasTalkingRefusal {
  /** The leg id (a purchase's delivery) or the reference (airtime sent from the balance). */
  readonly reference: string;
  readonly amountMinor: bigint;
  readonly reason: string;
}

/**
 * A send AT took, as `onSent` is told it: its requestId and AT's discount on it, as AT writes it.
 *
 * @example
 * ```ts
 * import type { AfricasTalkingSend } from '@topup/providers';
 *
 * const sent: AfricasTalkingSend = {
 *   reference: 'TXVQYSN6XMFZTY-delivery', requestId: 'ATQid_1', amountMinor: 10_000n, discount: 'KES 4.0000',
 * };
 * ```
 */
export interface AfricasTalkingSend {
  readonly reference: string;
  readonly requestId: string;
  readonly amountMinor: bigint;
  /** `KES 4.0000`; blank when AT's answer did not say it. */
  readonly discount: string;
}

const name = 'africastalking';

/** The code a refused recipient's result carries: AT's answer gives a reason but no code of its own. */
const REFUSED = 'AT_REFUSED';

/**
 * AT's duplicate answer: an earlier send under the same key (within AT's window), or of the same number
 * and amount (within five minutes), was taken; what became of it is unknown until it is asked about. Never
 * a refusal, and never "not taken".
 */
const duplicateOf = (said: string): SubmitResult => ({
  kind: 'unavailable',
  reason: `Africa's Talking answered that the send is a duplicate of one it took (${said}); its outcome is unknown`,
});

/**
 * The Africa's Talking provider: airtime deliveries sent keyed by their leg id, results pushed to the
 * `airtime-status` webhook or asked for with `queryLeg`.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createAfricasTalkingProvider } from '@topup/providers';
 *
 * const africastalking = createAfricasTalkingProvider({
 *   store: await openStore({ dataDir: 'memory://' }),
 *   baseUrl: 'https://api.sandbox.africastalking.com', username: 'sandbox', apiKey: 'at-key', timeoutMs: 8_000,
 * });
 * africastalking.laterLegs; // ['delivery']
 * ```
 */
export function createAfricasTalkingProvider(options: AfricasTalkingProviderOptions): Provider {
  const { store, username, apiKey } = options;
  const now = options.now ?? (() => new Date());
  const endpoint: AfricasTalkingEndpoint = { baseUrl: options.baseUrl, timeoutMs: options.timeoutMs };
  const submissions = createSubmissionBatches(store, now);

  /** The answer to a send claimed already: made before (its answer lost) or being made now. */
  const claimedElsewhere: SubmitResult = {
    kind: 'unavailable',
    reason:
      'a send of this airtime was claimed already, by an earlier submission or one under way; its outcome is unknown',
  };

  /**
   * Sends `transaction`'s airtime keyed by its delivery leg's id, once: claimed under `recordedAs` before
   * the call, and AT's requestId recorded under it after: the leg id for a purchase's later leg, or the
   * bare reference for airtime sent from the caller's balance, whose delivery is the whole transaction.
   */
  async function deliver(transaction: TransactionRecord, recordedAs: string): Promise<SubmitResult> {
    const request = airtimeSendRequest({
      username,
      apiKey,
      idempotencyKey: legId(transaction.reference, 'delivery'),
      // Stored as 2547… without the plus, which the request adds; a stray plus would make it `++254…`.
      mobile: transaction.recipient.mobile.replace(/^\+/, ''),
      amountMinor: transaction.amountMinor,
      currency: transaction.currency,
    });
    // Before the send: a store that cannot record the claim should fail before AT takes anything.
    await providerTablesReady(store);
    let claim: CallClaim;
    try {
      claim = await submissions.claim(name, recordedAs);
    } catch {
      return {
        kind: 'unavailable',
        reason: 'the send could not be claimed, so it was not made',
        taken: false,
      };
    }
    if (claim === 'acknowledged') return { kind: 'accepted' };
    if (claim === 'held') {
      return (await submissionIdOf(store, name, recordedAs)) === undefined
        ? claimedElsewhere
        : { kind: 'accepted' };
    }
    const answer = await callAfricasTalking(endpoint, {
      method: 'POST',
      path: '/version1/airtime/send',
      ...request,
    });
    if (answer.kind === 'not_sent') {
      await forgetAttempt(store, name, recordedAs);
      return {
        kind: 'unavailable',
        reason: `Africa's Talking could not be reached: ${answer.problem}`,
        taken: false,
      };
    }
    if (answer.kind === 'no_answer') {
      return { kind: 'unavailable', reason: `Africa's Talking did not answer: ${answer.problem}` };
    }
    const { amountMinor } = transaction;
    const read = readAirtimeSendAnswer(answer.status, answer.text);
    if (!read.ok) {
      if (read.walletLow) options.onWalletLow?.({ reference: recordedAs, amountMinor, reason: read.problem });
      if (read.duplicate) return duplicateOf(read.problem);
      const reason = `Africa's Talking did not take the delivery: ${read.problem}`;
      return read.nothingSent
        ? { kind: 'unavailable', reason, taken: false }
        : { kind: 'unavailable', reason };
    }
    // One recipient was sent, so one line answers it.
    const [recipient] = read.recipients;
    if (recipient === undefined) {
      return { kind: 'unavailable', reason: "Africa's Talking answered the delivery with no recipient" };
    }
    if (recipient.kind === 'duplicate') return duplicateOf(recipient.reason);
    if (recipient.kind === 'refused') {
      if (recipient.walletLow) {
        options.onWalletLow?.({ reference: recordedAs, amountMinor, reason: recipient.reason });
      }
      return { kind: 'refused', reason: recipient.reason, providerCode: REFUSED };
    }
    await submissions.remember({
      provider: name,
      providerId: recipient.requestId,
      reference: recordedAs,
      purpose: 'submission',
      otherId: '',
    });
    options.onSent?.({
      reference: recordedAs,
      requestId: recipient.requestId,
      amountMinor,
      discount: recipient.discount,
    });
    return { kind: 'accepted' };
  }

  /** What AT says of the send recorded under `recordedAs` (a leg id, or a bare reference). */
  async function ask(recordedAs: string): Promise<ProviderStatus> {
    await providerTablesReady(store);
    const submitted = await submissionIdOf(store, name, recordedAs);
    if (submitted === undefined) {
      if (!(await attemptRecorded(store, name, recordedAs))) return { kind: 'not_found' };
      // Claimed, so it may have been sent and taken, its answer lost: no proof it never happened.
      throw new Error(
        `Expected a requestId recorded for ${recordedAs}, found none: its send was claimed and may have been taken, so it is not called not found; asking again later.`,
      );
    }
    const requestId = submitted.providerId;
    const { path, headers } = airtimeQueryRequest({ username, apiKey, requestId });
    const answer = await callAfricasTalking(endpoint, { method: 'GET', path, headers });
    if (answer.kind !== 'answered') {
      throw new Error(
        `Africa's Talking could not be asked about ${recordedAs} (${requestId}): ${answer.problem}.`,
      );
    }
    const status = readAirtimeQueryAnswer(answer.status, answer.text);
    switch (status.kind) {
      case 'delivered':
      case 'failed':
        return {
          kind: 'result',
          result: {
            id: `at-query:${requestId}`,
            reference: recordedAs,
            outcome: status.kind === 'delivered' ? 'completed' : 'declined',
            providerCode: requestId,
            reason: status.kind === 'delivered' ? '' : status.description || AFRICASTALKING_UNDELIVERED,
            ...(status.evidence === undefined ? {} : { evidence: status.evidence }),
          },
        };
      case 'sent':
        return { kind: 'pending' };
      case 'not_found':
        // It acknowledged this send, so "not found" is no proof it never took it: a refund on its word
        // could pay the payer back for airtime that still arrives. Asked again, then left to an operator.
        throw new Error(
          `Africa's Talking does not find ${recordedAs} (${requestId}), which it acknowledged; asking again later.`,
        );
      case 'unknown':
        throw new Error(
          `Africa's Talking's answer about ${recordedAs} (${requestId}) could not be read: ${status.problem}.`,
        );
    }
  }

  return {
    name,
    idempotentSubmissions: false,
    laterLegs: ['delivery'],
    webhooks: africastalkingWebhooks,

    submit(transaction: TransactionRecord): Promise<SubmitResult> {
      if (transaction.type !== 'Airtime' || transaction.payment !== undefined) {
        return Promise.resolve({
          kind: 'unavailable',
          reason: "Africa's Talking carries airtime deliveries only",
          taken: false,
        });
      }
      return deliver(transaction, transaction.reference);
    },

    submitLeg(order: LegOrder): Promise<SubmitResult> {
      if (order.kind !== 'delivery') {
        return Promise.resolve({
          kind: 'unavailable',
          reason: `Africa's Talking carries airtime deliveries only, not a ${order.kind}`,
          taken: false,
        });
      }
      return deliver(order.transaction, order.id);
    },

    // Every result is pushed or asked for; none waits to be pulled.
    readyResults: () => Promise.resolve([]),
    acknowledge: () => Promise.resolve(),

    // The only first leg taken here is the delivery of airtime sent from the balance, recorded under
    // its bare reference.
    query: (reference: string) => ask(reference),

    queryLeg: (id: string) => ask(id),
  };
}
