// M-Pesa through Safaricom's Daraja as a provider. It carries agent float as a B2B payment from our short
// code to the agent's store number (experimental: Daraja documents no agent-float product, so the command
// is configurable), and an airtime purchase's payment leg as an STK Push prompt on the payer's phone and
// its refund leg as a Reversal of that payment's M-Pesa receipt. Neither B2B, STK Push nor Reversal takes
// an id of ours, so a submission whose acknowledgement is lost cannot be told from one never made: each
// call is claimed in the store before it is made and only the claimant makes it, it is never sent again
// (`idempotentSubmissions: false`), and a submission with no recorded id (ConversationID,
// CheckoutRequestID) cannot be asked about, which leaves it to reconciliation and an operator. A call that
// surely never left (the connection was refused) gives its claim up, so it counts as never made.
//
// Real merchants collect on one short code and pay out from another: STK Push and Reversal use the
// collection short code and its initiator, B2B (float) the disbursement short code and its initiator
// (`b2b`, the collection ones when absent), and each Transaction Status query asks as the initiator of the
// call it asks about.
//
// Initiator calls (B2B, Reversal) answer only pushed, to ResultURL; asking about one sends a Transaction
// Status query whose answer comes the same way, so `query`/`queryLeg` answer `pending` and the pushed Result
// settles it. A prompt's result is pushed to `/stk` and can also be pulled by STK Query, so asking about a
// payment leg answers at once. Payment leg results name the leg id (`<reference>-payment`), which is what
// the CheckoutRequestID is recorded under.

import { legId, parseLegId } from '@topup/ledger';
import type { Store, TransactionRecord } from '@topup/ledger';
import type { LegOrder, Provider, ProviderStatus, SubmitResult } from '../provider.js';
import { providerTablesReady } from '../provider-migrations.js';
import { createSharedAccessToken } from '../shared-access-token.js';
import { createSubmissionBatches } from '../submission-batches.js';
import {
  attemptRecorded,
  forgetAttempt,
  submissionIdOf,
  type CallClaim,
  type SubmissionId,
} from '../submission-ids.js';
import { callDaraja, issueDarajaToken, type DarajaAnswer, type DarajaEndpoint } from './daraja-client.js';
import {
  b2bPaymentRequest,
  reversalRequest,
  transactionStatusRequest,
  type DarajaInitiator,
} from './initiator-requests.js';
import { darajaWebhooks } from './daraja-webhooks.js';
import { stkPushRequest, type StkPushInput } from './stk-push-request.js';
import { readStkQueryAnswer, stkQueryRequest } from './stk-query.js';
import { textOf } from '../tolerant-json.js';

/**
 * What the Daraja provider is made from: the app's credentials, the initiator that makes B2B, reversal and
 * status calls, where Daraja sends their Results, and, for airtime payments, the STK Push settings.
 *
 * @example
 * ```ts
 * import type { DarajaProviderOptions } from '@topup/providers';
 *
 * const options: Omit<DarajaProviderOptions, 'store'> = {
 *   endpoint: { baseUrl: 'https://api.safaricom.co.ke', timeoutMs: 8_000 },
 *   credentials: { consumerKey: 'key', consumerSecret: 'secret' },
 *   shortCode: '600992', initiatorName: 'topupapi', securityCredential: 'EnCrYpTeD==',
 *   b2bCommandId: 'BusinessBuyGoods', webhookUrl: 'https://topup.example/providers/daraja/0123456789abcdef0123456789abcdef',
 *   stk: { passkey: 'passkey', transactionType: 'CustomerPayBillOnline', partyB: '600992' },
 * };
 * ```
 */
export interface DarajaProviderOptions {
  readonly store: Store;
  readonly endpoint: DarajaEndpoint;
  readonly credentials: { readonly consumerKey: string; readonly consumerSecret: string };
  readonly shortCode: string;
  readonly initiatorName: string;
  /** `securityCredential(initiatorPassword, certificate)`. */
  readonly securityCredential: string;
  /** B2B's CommandID for agent float, `BusinessBuyGoods` unless Safaricom says otherwise. */
  readonly b2bCommandId: string;
  /** `{PUBLIC_BASE_URL}/providers/daraja/{PROVIDER_WEBHOOK_TOKEN}`: `/result`, `/timeout` and `/stk` are added. */
  readonly webhookUrl: string;
  /**
   * The short code agent float is paid from and the initiator of its B2B payments, where they differ from
   * the collection short code (`shortCode`) and its initiator, as they do for most merchants.
   */
  readonly b2b?: {
    readonly shortCode: string;
    readonly initiatorName: string;
    /** `securityCredential(initiatorPassword, certificate)` of the B2B initiator. */
    readonly securityCredential: string;
  };
  /**
   * How airtime's payment is collected by STK Push: the Lipa na M-Pesa Online passkey of `shortCode`, and
   * the paybill or till paid. Without it, airtime is not taken.
   */
  readonly stk?: {
    readonly passkey: string;
    readonly transactionType: StkPushInput['transactionType'];
    /** The paybill (the short code itself, for CustomerPayBillOnline) or the till paid. */
    readonly partyB: string;
  };
  readonly now?: () => Date;
}

const name = 'daraja';

/** The reason a caller reads when Daraja refused a call at once; its code goes with it. */
const REFUSED = 'refused by M-Pesa';
/** The reason a caller reads when Daraja did not take a call, so nothing can come of it. */
const NOT_TAKEN = 'M-Pesa did not take the transaction';

/** The two ids Daraja acknowledges a call with: the one its results name, and the one beside it. */
interface Acknowledgement {
  readonly providerId: string;
  readonly otherId: string;
}

/** Where an acknowledgement carries its ids: initiator calls' conversation ids, or STK Push's request ids. */
const initiatorIds = { id: 'ConversationID', other: 'OriginatorConversationID' } as const;
const stkIds = { id: 'CheckoutRequestID', other: 'MerchantRequestID' } as const;

/** The ids of an accepted call, or what Daraja answered instead. */
function acknowledged(
  answer: DarajaAnswer,
  fields: { readonly id: string; readonly other: string } = initiatorIds,
): Acknowledgement | Exclude<SubmitResult, { kind: 'accepted' }> {
  if (answer.kind === 'not_sent') return { kind: 'unavailable', reason: NOT_TAKEN, taken: false };
  if (answer.kind === 'no_answer')
    return { kind: 'unavailable', reason: 'the provider did not answer in time' };
  if (answer.kind === 'error') {
    const { status, errorCode } = answer.error;
    // 4xx: the request was refused as written, so nothing was taken; 5xx and gateways may have taken it.
    if (status >= 400 && status < 500) {
      return { kind: 'refused', reason: REFUSED, providerCode: errorCode || `HTTP ${String(status)}` };
    }
    return { kind: 'unavailable', reason: 'the provider failed to take the transaction' };
  }
  const code = textOf(answer.body['ResponseCode']) ?? '';
  const providerId = textOf(answer.body[fields.id]) ?? '';
  if (code !== '0') return { kind: 'refused', reason: REFUSED, providerCode: code || 'no ResponseCode' };
  if (providerId === '') return { kind: 'unavailable', reason: NOT_TAKEN };
  return { providerId, otherId: textOf(answer.body[fields.other]) ?? '' };
}

/** The refusal of an amount M-Pesa cannot move. */
const notWholeShillings: SubmitResult = {
  kind: 'refused',
  reason: 'M-Pesa moves whole shillings only',
  providerCode: 'AMOUNT',
};

/**
 * The Daraja provider: agent float by B2B; airtime's payment by STK Push and its refund by Reversal;
 * results pushed to `webhookUrl`, asked about by Transaction Status and STK Query.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createDarajaProvider } from '@topup/providers';
 *
 * const daraja = createDarajaProvider({
 *   store: await openStore({ dataDir: 'memory://' }),
 *   endpoint: { baseUrl: 'https://api.safaricom.co.ke', timeoutMs: 8_000 },
 *   credentials: { consumerKey: 'key', consumerSecret: 'secret' },
 *   shortCode: '600992', initiatorName: 'topupapi', securityCredential: 'EnCrYpTeD==',
 *   b2bCommandId: 'BusinessBuyGoods', webhookUrl: 'https://topup.example/providers/daraja/0123456789abcdef0123456789abcdef',
 * });
 * daraja.idempotentSubmissions; // false
 * ```
 */
export function createDarajaProvider(options: DarajaProviderOptions): Provider {
  const { store, endpoint } = options;
  const now = options.now ?? (() => new Date());
  const submissions = createSubmissionBatches(store, now);
  const tokens = createSharedAccessToken({
    store,
    provider: name,
    issue: () => issueDarajaToken(endpoint, options.credentials),
    now,
  });
  const urls = {
    resultUrl: `${options.webhookUrl}/result`,
    queueTimeoutUrl: `${options.webhookUrl}/timeout`,
  };
  /** Who reverses payments to the collection short code, and asks about those reversals. */
  const collector: DarajaInitiator = {
    initiatorName: options.initiatorName,
    securityCredential: options.securityCredential,
    shortCode: options.shortCode,
    ...urls,
  };
  /** Who pays agent float from the disbursement short code, and asks about those payments. */
  const disburser: DarajaInitiator = options.b2b === undefined ? collector : { ...options.b2b, ...urls };
  /**
   * The short code a prompt's payment was made to, which its reversal names: the paybill paid, or for a
   * till (whose payments the store's short code receives) the short code the prompt was sent as.
   */
  const paidShortCode =
    options.stk?.transactionType === 'CustomerPayBillOnline' ? options.stk.partyB : options.shortCode;
  /** Records the ids of an acknowledged call, which its Result will name. */
  const remember = (ids: Acknowledgement, reference: string, purpose: SubmissionId['purpose']) =>
    submissions.remember({ provider: name, ...ids, reference, purpose });

  /** The answer to a call claimed already: made before (its acknowledgement lost) or being made now. */
  const claimedElsewhere: SubmitResult = {
    kind: 'unavailable',
    reason: 'the call was claimed already, by an earlier submission or one under way; its outcome is unknown',
  };
  const notSent: SubmitResult = { kind: 'unavailable', reason: NOT_TAKEN, taken: false };

  /**
   * Makes the one call for `reference` that Daraja cannot deduplicate: not at all when its id is recorded
   * (acknowledged before) or another submission holds its claim; otherwise claimed first, so that of two
   * submissions at once only one calls. A call that never left gives its claim up.
   */
  const callOnce = async (
    reference: string,
    path: string,
    body: Readonly<Record<string, unknown>>,
    ids: { readonly id: string; readonly other: string } = initiatorIds,
  ): Promise<SubmitResult> => {
    await providerTablesReady(store);
    let claim: CallClaim;
    try {
      claim = await submissions.claim(name, reference);
    } catch {
      // No claim could be written, so no call is made: nothing can come of it.
      return notSent;
    }
    if (claim === 'acknowledged') return { kind: 'accepted' };
    // Lost to a claimant whose call may have been acknowledged meanwhile.
    if (claim === 'held') {
      return (await submissionIdOf(store, name, reference)) === undefined
        ? claimedElsewhere
        : { kind: 'accepted' };
    }
    const answer = await callDaraja(endpoint, tokens, path, body);
    if (answer.kind === 'not_sent') await forgetAttempt(store, name, reference);
    const read = acknowledged(answer, ids);
    if ('kind' in read) return read;
    // Recorded before answering: a Result or callback may overtake the acknowledgement, and is applied
    // only once the worker finds its id here.
    await remember(read, reference, 'submission');
    return { kind: 'accepted' };
  };

  /** The id recorded for the submission of `reference`; a call never acknowledged cannot be asked about. */
  const recordedId = async (reference: string, what: string): Promise<SubmissionId> => {
    const submitted = await submissionIdOf(store, name, reference);
    if (submitted === undefined) {
      throw new Error(
        `Expected ${what} recorded for ${reference}, found none: Daraja cannot be asked about a call whose acknowledgement never arrived.`,
      );
    }
    return submitted;
  };

  /**
   * Asks Transaction Status about an initiator call (B2B, Reversal) by its OriginatorConversationID. The
   * answer comes pushed, naming the query's ConversationID, recorded for `reference` as a status query.
   */
  const askStatus = async (reference: string, initiator: DarajaInitiator): Promise<ProviderStatus> => {
    const submitted = await recordedId(reference, 'a ConversationID');
    const body = transactionStatusRequest({
      ...initiator,
      about: { originatorConversationId: submitted.otherId || submitted.providerId },
    });
    const answer = acknowledged(
      await callDaraja(endpoint, tokens, '/mpesa/transactionstatus/v1/query', body),
    );
    if ('kind' in answer) {
      throw new Error(
        `Daraja did not take a status query about ${reference}: ${answer.kind === 'refused' ? answer.providerCode : answer.reason}.`,
      );
    }
    await remember(answer, reference, 'status');
    return { kind: 'pending' };
  };

  /** Prompts the payer of an airtime purchase for its amount: the purchase's payment leg. */
  const promptPayer = async (transaction: TransactionRecord): Promise<SubmitResult> => {
    const { stk } = options;
    if (stk === undefined) return { kind: 'unavailable', reason: NOT_TAKEN, taken: false };
    const payerMobile = transaction.payment?.mobile ?? '';
    if (payerMobile === '') {
      return { kind: 'refused', reason: 'no payer to prompt for the payment', providerCode: 'NO_PAYER' };
    }
    let body;
    try {
      body = stkPushRequest({
        shortCode: options.shortCode,
        passkey: stk.passkey,
        transactionType: stk.transactionType,
        partyB: stk.partyB,
        payerMobile,
        amountMinor: transaction.amountMinor,
        callbackUrl: `${options.webhookUrl}/stk`,
        // Shown in the prompt, 12 characters at most: the reference's end tells purchases apart.
        accountReference: transaction.reference.slice(-12),
        description: 'Airtime',
        at: now(),
      });
    } catch {
      return notWholeShillings;
    }
    // Made once: prompted twice, the payer would be asked to pay twice.
    return callOnce(
      legId(transaction.reference, 'payment'),
      '/mpesa/stkpush/v1/processrequest',
      body,
      stkIds,
    );
  };

  /**
   * Asks STK Query about the prompt of the payment leg `leg`. A prompt still open is pending; one that
   * ended is its result, named by the leg id (STK Query tells no receipt, so a paid one carries none).
   */
  const askPrompt = async (leg: string): Promise<ProviderStatus> => {
    const { stk } = options;
    const submitted = await recordedId(leg, 'a CheckoutRequestID');
    if (stk === undefined) {
      throw new Error(`Expected the STK settings to ask about the prompt of ${leg}, received none.`);
    }
    const checkoutRequestId = submitted.providerId;
    const status = readStkQueryAnswer(
      await callDaraja(
        endpoint,
        tokens,
        '/mpesa/stkpushquery/v1/query',
        stkQueryRequest({ shortCode: options.shortCode, passkey: stk.passkey, checkoutRequestId, at: now() }),
      ),
    );
    if (status.kind === 'pending') return status;
    if (status.kind === 'unknown') {
      throw new Error(
        `Daraja's STK Query about ${leg} (${checkoutRequestId}) told nothing: ${status.problem}.`,
      );
    }
    const paid = status.outcome.kind === 'paid';
    return {
      kind: 'result',
      result: {
        id: `stk-query:${checkoutRequestId}`,
        reference: leg,
        outcome: paid ? 'completed' : 'declined',
        providerCode: paid ? '' : status.resultCode,
        reason: status.outcome.kind === 'declined' ? status.outcome.reason : '',
      },
    };
  };

  /** Reverses the payment a refund leg names by its M-Pesa receipt, back to the payer. */
  const reversePayment = async (order: LegOrder): Promise<SubmitResult> => {
    if (order.paymentReference === '') {
      return { kind: 'refused', reason: 'no M-Pesa receipt to reverse', providerCode: 'NO_RECEIPT' };
    }
    let body;
    try {
      body = reversalRequest({
        ...collector,
        receiverParty: paidShortCode,
        receipt: order.paymentReference,
        amountMinor: order.transaction.amountMinor,
        remarks: 'Airtime not delivered',
      });
    } catch {
      return notWholeShillings;
    }
    // Made once, like every money call: a second reversal would end R000001, but only if the first had.
    return callOnce(order.id, '/mpesa/reversal/v1/request', body);
  };

  return {
    name,
    idempotentSubmissions: false,
    webhooks: darajaWebhooks,
    laterLegs: ['refund'],

    async submit(transaction: TransactionRecord): Promise<SubmitResult> {
      if (transaction.type === 'Airtime') return promptPayer(transaction);
      const { reference, recipient } = transaction;
      let body;
      try {
        body = b2bPaymentRequest({
          ...disburser,
          commandId: options.b2bCommandId,
          storeNumber: recipient.store_number,
          agentNumber: recipient.agent_number,
          amountMinor: transaction.amountMinor,
          remarks: `Float ${reference}`,
        });
      } catch {
        return notWholeShillings;
      }
      return callOnce(reference, '/mpesa/b2b/v1/paymentrequest', body);
    },

    // Every result is pushed (or answered to a query); none waits to be pulled.
    readyResults: () => Promise.resolve([]),
    acknowledge: () => Promise.resolve(),

    async query(reference: string): Promise<ProviderStatus> {
      await providerTablesReady(store);
      // Only the reference comes: an airtime purchase's prompt is recorded under its payment leg's id, a
      // float's B2B under the reference itself.
      const payment = legId(reference, 'payment');
      if ((await submissionIdOf(store, name, payment)) !== undefined) return askPrompt(payment);
      if ((await submissionIdOf(store, name, reference)) !== undefined) {
        return askStatus(reference, disburser);
      }
      // No id: either the call was never made (a crash before it), which it may be now, or its
      // acknowledgement was lost, after which it cannot be asked about and must never be made again.
      const attempted =
        (await attemptRecorded(store, name, payment)) || (await attemptRecorded(store, name, reference));
      if (!attempted) return { kind: 'not_found' };
      throw new Error(
        `Expected an id recorded for ${reference}, found none: its call was sent and its acknowledgement never arrived, so Daraja cannot be asked about it.`,
      );
    },

    async submitLeg(order: LegOrder): Promise<SubmitResult> {
      if (order.kind !== 'refund') return { kind: 'unavailable', reason: NOT_TAKEN, taken: false };
      return reversePayment(order);
    },

    async queryLeg(id: string): Promise<ProviderStatus> {
      const leg = parseLegId(id);
      await providerTablesReady(store);
      if (leg?.kind === 'payment') return askPrompt(id);
      if (leg?.kind === 'refund') return askStatus(id, collector);
      throw new Error(`Expected a payment or refund leg id to ask Daraja about, received ${id}.`);
    },
  };
}
