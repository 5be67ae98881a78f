// Africa's Talking as a provider: it carries airtime deliveries, a purchase's once the payer's money network
// has taken the payment, or airtime sent from the caller's balance as the whole transaction, and nothing
// else (no payment, no float, no refund). A send is keyed by an Idempotency-Key, the delivery leg's id, so
// sending a leg again whose acknowledgement was lost repeats nothing (`idempotentSubmissions: true`). AT's
// acknowledgement gives a requestId, recorded under the leg id (a purchase's) or the bare reference (a
// send's, whose results then speak for the whole transaction): the status callback names the send by it
// alone, and the transaction query asks by it. A send with no recorded requestId was never acknowledged,
// and is `not_found`, after which the worker may send it again under the same key.

import { legId, type Store, type TransactionRecord } from '@topup/ledger';
import type { LegOrder, Provider, ProviderStatus, SubmitResult } from '../provider.js';
import { providerTablesReady } from '../provider-migrations.js';
import { recordSubmissionId, submissionIdOf } from '../submission-ids.js';
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
  readonly now?: () => Date;
}

const name = 'africastalking';

/** The code a refused recipient's result carries: AT's answer gives a reason but no code of its own. */
const REFUSED = 'AT_REFUSED';

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

  /**
   * Sends `transaction`'s airtime keyed by its delivery leg's id, and records AT's requestId under
   * `recordedAs`: the leg id for a purchase's later leg, or the bare reference for airtime sent from the
   * caller's balance, whose delivery is the whole transaction.
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
    // Before the send: a store that cannot record the requestId should fail before AT takes anything.
    await providerTablesReady(store);
    const answer = await callAfricasTalking(endpoint, {
      method: 'POST',
      path: '/version1/airtime/send',
      ...request,
    });
    if (answer.kind === 'not_sent') {
      return {
        kind: 'unavailable',
        reason: `Africa's Talking could not be reached: ${answer.problem}`,
        taken: false,
      };
    }
    if (answer.kind === 'no_answer') {
      return { kind: 'unavailable', reason: `Africa's Talking did not answer: ${answer.problem}` };
    }
    const read = readAirtimeSendAnswer(answer.status, answer.text);
    if (!read.ok) {
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
    if (recipient.kind === 'refused')
      return { kind: 'refused', reason: recipient.reason, providerCode: REFUSED };
    await recordSubmissionId(
      store,
      {
        provider: name,
        providerId: recipient.requestId,
        reference: recordedAs,
        purpose: 'submission',
        otherId: '',
      },
      now(),
    );
    return { kind: 'accepted' };
  }

  /** What AT says of the send recorded under `recordedAs` (a leg id, or a bare reference). */
  async function ask(recordedAs: string): Promise<ProviderStatus> {
    await providerTablesReady(store);
    const submitted = await submissionIdOf(store, name, recordedAs);
    if (submitted === undefined) return { kind: 'not_found' };
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
    idempotentSubmissions: true,
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
