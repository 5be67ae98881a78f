// The one small interface every money network and airtime carrier sits behind. The server submits a
// transaction within the request; results arrive later, pulled (`readyResults`) or pushed to the server's
// webhook route (`webhooks`), and the worker applies them through the ledger. The worker asks a provider
// about a transaction (`query`) before it gives up on one, since only the provider knows whether a
// transaction it was sent has happened.

import type { LegKind, TransactionRecord } from '@topup/ledger';
import type { SubmissionId } from './submission-ids.js';

/**
 * What a provider said to a submission.
 *
 * @example
 * ```ts
 * import type { SubmitResult } from '@topup/providers';
 *
 * const refused: SubmitResult = { kind: 'refused', reason: 'unknown agent', providerCode: 'MN-404' };
 * ```
 */
export type SubmitResult =
  | { kind: 'accepted' }
  /** Refused at once: the transaction is cancelled and the caller is answered `8000`. */
  | { kind: 'refused'; reason: string; providerCode: string }
  /**
   * Could not be reached or failed: the transaction is cancelled and the caller is answered `9000`.
   * `taken: false` when the provider answered that it did not take the transaction, so nothing can come
   * of it; a silence or an error leaves that unknown.
   */
  | { kind: 'unavailable'; reason: string; taken?: false };

/**
 * A later result of an accepted transaction.
 *
 * @example
 * ```ts
 * import type { ProviderResult } from '@topup/providers';
 *
 * const paid: ProviderResult = {
 *   id: 'evt_1',
 *   reference: 'TXVQYSN6XMFZTY',
 *   outcome: 'completed',
 *   providerCode: 'SIM1A2B3C4D5E',
 *   reason: '',
 * };
 * ```
 */
export interface ProviderResult {
  readonly id: string;
  readonly reference: string;
  readonly outcome: 'completed' | 'declined' | 'failed_after_payment';
  readonly providerCode: string;
  readonly reason: string;
  /**
   * What the provider's message says was moved, where it says it; the ledger compares it with what was
   * asked, and a result that differs moves no money and waits for an operator.
   */
  readonly evidence?: ResultEvidence;
}

/**
 * What a provider's result says was moved: the amount, the phone number (as the provider wrote it, maybe
 * masked with `*`), and the short code, till or store number on the other side. Absent fields say nothing.
 *
 * @example
 * ```ts
 * import type { ResultEvidence } from '@topup/providers';
 *
 * const paid: ResultEvidence = { amountMinor: 50_000n, mobile: '254708374149' };
 * ```
 */
export interface ResultEvidence {
  readonly amountMinor?: bigint;
  readonly mobile?: string;
  readonly partyCode?: string;
}

/**
 * A result a provider's webhook names by the provider's own id for the submission (Daraja's ConversationID,
 * Africa's Talking's requestId) rather than by our reference: the worker finds the reference the provider
 * took it under in the ids recorded at submission (`recordProviderIds`).
 *
 * @example
 * ```ts
 * import type { ProviderReport } from '@topup/providers';
 *
 * const paid: ProviderReport = {
 *   id: 'result:AG_20261124_0000abcd',
 *   providerId: 'AG_20261124_0000abcd',
 *   about: 'submission',
 *   outcome: 'completed',
 *   providerCode: 'TK4D2B9F1A',
 *   reason: '',
 * };
 * ```
 */
export interface ProviderReport extends Omit<ProviderResult, 'reference'> {
  readonly providerId: string;
  /**
   * Which of the ids the adapter records the report speaks for: the submission's own, or a status query's
   * (whose failure says nothing of the submission). A report about an id recorded for the other purpose is
   * not applied.
   */
  readonly about: Exclude<SubmissionId['purpose'], 'attempt'>;
}

/**
 * What a provider knows of one transaction: its final result, that it is still working on it, or that it
 * never took it (so nothing can come of it). A provider that cannot be asked throws.
 *
 * @example
 * ```ts
 * import type { ProviderStatus } from '@topup/providers';
 *
 * function settled(status: ProviderStatus): boolean {
 *   return status.kind !== 'pending';
 * }
 * ```
 */
export type ProviderStatus =
  | { readonly kind: 'result'; readonly result: ProviderResult }
  | { readonly kind: 'pending' }
  | { readonly kind: 'not_found' };

/**
 * A webhook call as the server received it at `/providers/<provider>/<token>/<event>`.
 *
 * @example
 * ```ts
 * import type { WebhookCall } from '@topup/providers';
 *
 * const call: WebhookCall = { event: 'result', contentType: 'application/json', body: '{}' };
 * ```
 */
export interface WebhookCall {
  /** The last path segment: which of the provider's callbacks this is. */
  readonly event: string;
  readonly contentType: string;
  /** The raw body, as received. */
  readonly body: string;
}

/**
 * What a provider's webhook call says: results to apply, named by our reference or by the provider's own
 * id (under the provider's own event id, so a repeat is stored once), a well-formed call with nothing to
 * apply, or a call that cannot be read.
 *
 * @example
 * ```ts
 * import type { WebhookEvent } from '@topup/providers';
 *
 * function describe(event: WebhookEvent): string {
 *   return event.kind === 'garbled' ? `unreadable: ${event.problem}` : `event ${event.eventId}`;
 * }
 * ```
 */
export type WebhookEvent =
  | { readonly kind: 'results'; readonly eventId: string; readonly results: readonly ProviderResult[] }
  | { readonly kind: 'reports'; readonly eventId: string; readonly reports: readonly ProviderReport[] }
  | { readonly kind: 'ignored'; readonly eventId: string; readonly why: string }
  | { readonly kind: 'garbled'; readonly problem: string };

/**
 * The HTTP answer a provider expects to its webhook call.
 *
 * @example
 * ```ts
 * import type { WebhookReply } from '@topup/providers';
 *
 * const accepted: WebhookReply = { status: 200, contentType: 'application/json', body: '{"ok":true}' };
 * ```
 */
export interface WebhookReply {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

/**
 * A provider's pushed results: how its webhook calls are read, and answered in the form it expects.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createSandboxSimulator } from '@topup/providers';
 *
 * const simulator = createSandboxSimulator(await openStore({ dataDir: 'memory://' }), { delayMs: 0 });
 * const event = simulator.webhooks?.parse({ event: 'result', contentType: 'application/json', body: '{}' });
 * console.log(event?.kind); // 'garbled'
 * ```
 */
export interface WebhookReceiver {
  /** Never throws: what cannot be read is `garbled`. */
  parse(call: WebhookCall): WebhookEvent;
  /** The answer to a call, once it is stored (or found stored already). */
  reply(event: WebhookEvent): WebhookReply;
}

/**
 * A leg after a transaction's first, as the worker hands it to the provider that carries it: an airtime
 * purchase's `delivery` (to the recipient's carrier, once the payment succeeded) or its `refund` (to the
 * payer's money network, once the delivery failed). `id` is our leg id, `<reference>-<kind>`: the key it is
 * submitted under, and the reference of the results about it.
 *
 * @example
 * ```ts
 * import type { LegOrder } from '@topup/providers';
 *
 * const describe = (order: LegOrder) => `${order.id}: ${order.kind} of ${order.transaction.reference}`;
 * ```
 */
export interface LegOrder {
  readonly id: string;
  readonly kind: Extract<LegKind, 'delivery' | 'refund'>;
  readonly transaction: TransactionRecord;
  /** For a refund: the payment leg's provider reference (M-Pesa's receipt), which the refund names. */
  readonly paymentReference: string;
}

/**
 * A money network or airtime carrier as the server and the worker drive it. Results name what they are
 * about by `reference`: a transaction's reference speaks for the whole transaction (the simulator plays
 * payer and carrier at once), a leg id (`<reference>-payment`, `-delivery`, `-refund`) for that leg only,
 * after which the worker submits the next leg.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createSandboxSimulator, type Provider } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const provider: Provider = createSandboxSimulator(store, { delayMs: 0 });
 * for (const result of await provider.readyResults(100)) console.log(result.reference, result.outcome);
 * ```
 */
export interface Provider {
  readonly name: string;
  /**
   * Whether submitting the same reference again is safe (the provider deduplicates it). When not, a
   * submission whose outcome is unknown is looked up with `query` before it is ever sent again.
   */
  readonly idempotentSubmissions: boolean;
  /** How its pushed results are read, when it pushes them. */
  readonly webhooks?: WebhookReceiver;
  /** Submits a transaction. Keyed by `reference`: submitting the same reference again never repeats it. */
  submit(transaction: TransactionRecord): Promise<SubmitResult>;
  /** Results that are ready, oldest first. A result stays ready until acknowledged. */
  readyResults(limit: number): Promise<ProviderResult[]>;
  /** Marks results as applied, so they are not handed out again. */
  acknowledge(resultIds: readonly string[]): Promise<void>;
  /** Asks what became of the transaction submitted under `reference`. */
  query(reference: string): Promise<ProviderStatus>;
  /** The legs after the first it can carry; absent when it carries none. */
  readonly laterLegs?: readonly LegOrder['kind'][];
  /** Submits a later leg, keyed by its id: submitting the same id again never repeats it. */
  submitLeg?(order: LegOrder): Promise<SubmitResult>;
  /** Asks what became of the later leg submitted under `legId`; results name the leg id. */
  queryLeg?(legId: string): Promise<ProviderStatus>;
}
