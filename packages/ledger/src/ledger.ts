// The ledger: the one object the server and worker use. It wires the store, the clock and the time
// zone to each part (accounts, tokens, money, transactions, idempotency, contacts, callbacks, verify)
// and puts transaction requests through group commit.

import type { WithdrawalSignal } from './withdrawal-signal.js';
import type { Carrier } from '@topup/envelope';
import type { BuyAirtimeRequest, SendAgentFloatRequest, SendAirtimeRequest } from '@topup/validation';
import * as accounts from './accounts.js';
import type { Account, AccountProfile, AccountStatus } from './accounts.js';
import { createAuthenticationCache } from './authentication-cache.js';
import * as endpoints from './callback-endpoints.js';
import type { CallbackEndpoint, NewCallbackEndpoint } from './callback-endpoints.js';
import * as outbox from './callback-outbox.js';
import type {
  ClaimedDelivery,
  ClaimOptions,
  DeliveryAttempt,
  DeliveryFilter,
  DeliveryPage,
  DeliveryRecord,
  DeliveryStatus,
  FailedCallbacksResend,
} from './callback-outbox.js';
import { findContact, type Contact } from './contacts.js';
import { createGroupCommit, isolatingFailures } from './group-commit.js';
import * as idempotency from './idempotency.js';
import type { IdempotencyClaim, IdempotentSave } from './idempotency.js';
import {
  channelBalanceOf,
  findChannelAccount,
  readChannelBalance,
  systemAccountIds,
  type ChannelBalance,
  type ChannelName,
} from './ledger-accounts.js';
import { LedgerError } from './ledger-error.js';
import type {
  LegSettlement,
  RequestOutcome,
  ResolveOutcome,
  SendAirtimeOutcome,
  StoredResponse,
} from './outcomes.js';
import { applyRequestBatch, type RequestUnit, type UnitOutcome } from './request-batch.js';
import {
  listRequested,
  markAllSubmitted,
  resolveBatch,
  type Resolution,
  type ResolutionRequest,
} from './resolution.js';
import type { Queryable, Store } from './store.js';
import { listStatement, type StatementFilter, type StatementPage } from './statement.js';
import * as tokens from './tokens.js';
import type { AuthenticatedToken, TokenInfo, TokenMode } from './tokens.js';
import { assertTimeZone } from './transaction-date.js';
import {
  agentFloatDraft,
  airtimeDraft,
  sentAirtimeDrafts,
  type TransactionDraft,
} from './transaction-draft.js';
import {
  transactionColumns,
  transactionRecordOf,
  type TransactionRecord,
  type TransactionRow,
} from './transaction-record.js';
import { listTransactions, type TransactionFilter, type TransactionPage } from './transaction-listing.js';
import {
  applyLegEvent,
  applyLegEvents,
  type LegEvent,
  type LegEventOutcome,
  type LegEventRequest,
} from './leg-events.js';
import {
  countLegsForReview,
  legWaitsForReview,
  listLegs,
  listLegsForReview,
  parseLegId,
  type LegKind,
  type TransactionLeg,
  type UnsettledLeg,
} from './transaction-legs.js';
import { applyTransfers } from './transfers.js';
import { listPurchasesUnderWay, type PurchaseUnderWay } from './purchase-chain-legs.js';
import { listUnappliedResolutions, type UnappliedResolution } from './unapplied-resolutions.js';
import { verifyLedger, type VerifyReport } from './verify.js';

/**
 * Options of `ledger.fund`.
 *
 * @example
 * ```ts
 * import { createLedger, openStore, type FundOptions } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * const options: FundOptions = {
 *   // Committed together with the credit, or not at all.
 *   within: async (tx) => {
 *     await tx.query('SELECT 1');
 *   },
 * };
 * await ledger.fund(account.id, 'float', 100_000n, options);
 * ```
 */
export interface FundOptions {
  /** Runs first inside the credit's database transaction; throwing cancels the credit. */
  readonly within?: (tx: Queryable) => Promise<void>;
}

/**
 * Options of a ledger change an operator makes (an account, a token, an endpoint, a callback resent, a leg
 * settled): what to write beside it in its own database transaction.
 *
 * @example
 * ```ts
 * import { createLedger, openStore, type Account, type ChangeOptions } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await store.query('CREATE TABLE audit (what text)');
 * const ledger = createLedger(store);
 * const audited: ChangeOptions<Account> = {
 *   // Committed with the account, or not at all.
 *   alongside: async (tx, account) => {
 *     await tx.query('INSERT INTO audit VALUES ($1)', [`created ${account.id}`]);
 *   },
 * };
 * await ledger.createAccount({ name: 'Duka Supplies' }, audited);
 * ```
 */
export interface ChangeOptions<R> {
  /**
   * Runs inside the change's database transaction once the change is made, and only when it changed
   * something: what it writes (an audit record) commits with the change or not at all, and its throwing
   * cancels the change.
   */
  readonly alongside?: (tx: Queryable, result: R) => Promise<void>;
}

/**
 * Settings of `createLedger`; every one has a default.
 *
 * @example
 * ```ts
 * import { createLedger, type LedgerOptions, openStore } from '@topup/ledger';
 *
 * const options: LedgerOptions = {
 *   timeZone: 'Africa/Nairobi',
 *   batch: { maxWaitMs: 2, maxSize: 512, maxTransactions: 4096 },
 *   commissionBasisPoints: { CarrierA: 150 }, // 1.5 % of CarrierA airtime stays with the caller
 *   onBatch: (size) => console.log(`committed ${size} requests`),
 * };
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }), options);
 * ```
 */
export interface LedgerOptions {
  /** Time zone of `transaction.date`. Default `Africa/Nairobi`. */
  timeZone?: string;
  /** The clock; injectable for tests. */
  now?: () => Date;
  /**
   * Group commit: flush after `maxWaitMs` (default 1) or at `maxSize` requests (default 256); a batch of
   * requests also holds at most about `maxTransactions` transactions (default 2048), a send counting one
   * per recipient.
   */
  batch?: { maxWaitMs?: number; maxSize?: number; maxTransactions?: number };
  /** Airtime commission kept by the caller's Airtime channel, per carrier, in basis points. Default 0. */
  commissionBasisPoints?: Partial<Record<Carrier, number>>;
  /** Called after each batch commits, with its size (for metrics). */
  onBatch?: (size: number) => void;
  /**
   * Purchases are carried by two providers, one taking the payment and one delivering (live mode): an
   * operator's settlement of a purchase's payment is then followed by its delivery. By default one provider
   * carries a purchase whole (the sandbox simulator), and the payment's settlement settles the purchase.
   */
  chainedPurchases?: boolean;
  /**
   * How long a valid token's authentication is reused, in milliseconds. Default 0: every `authenticate`
   * reads the store. A revocation or status change made through this ledger applies at once either way;
   * one made by another process applies within this time.
   */
  authCacheMs?: number;
  /** Test hooks. */
  faultInjection?: {
    /** Runs inside each batch's transaction after every write, before COMMIT; a throw rolls it back. */
    beforeCommit?: (batchSize: number) => void | Promise<void>;
  };
}

/** The reason a caller reads when an operator's review found that the provider did not carry it out. */

/**
 * Why a transaction was cancelled, as the provider or the timeout said; `reason` goes into the callback's
 * `errors`.
 *
 * @example
 * ```ts
 * import { parseSendAgentFloat } from '@topup/validation';
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * await ledger.fund(account.id, 'float', 5_000_000n);
 * const parsed = parseSendAgentFloat({
 *   mobile: '0712345678',
 *   amount: 1500,
 *   agent_number: '123456',
 *   store_number: '654321',
 * });
 * if (!parsed.ok) throw new Error(parsed.errors.join(', '));
 * const outcome = await ledger.requestAgentFloat({ accountId: account.id, request: parsed.value });
 * if (outcome.kind === 'created') {
 *   await ledger.cancel(outcome.transaction.reference, {
 *     reason: 'provider refused the transfer',
 *     providerCode: 'E42',
 *   });
 *   (await ledger.balance(account.id, 'float')).availableMinor; // 5000000n: the reservation is void
 * }
 * ```
 */
export interface CancelResult {
  reason: string;
  providerCode?: string;
  /** The provider that carried the transaction, recorded on its legs. */
  provider?: string;
  /**
   * Airtime only: the payer's payment had been collected when the purchase failed (e.g. delivery failed
   * after payment), so the ledger records the collection and its refund and the payer nets zero.
   */
  paymentCollected?: boolean;
  /**
   * The transaction timeout asks for it, not a provider: should a result have resolved the transaction
   * first, that result is the truth and there is nothing to reconcile, so the refusal is not recorded.
   */
  timedOut?: boolean;
}

/**
 * The ledger of one store: accounts and tokens, money, transactions and their lifecycle, idempotency,
 * contacts, callback endpoints and the callback outbox. Create it with `createLedger`.
 *
 * @example
 * ```ts
 * import { parseSendAgentFloat } from '@topup/validation';
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * await ledger.fund(account.id, 'float', 5_000_000n);
 * const parsed = parseSendAgentFloat({
 *   mobile: '0712345678',
 *   amount: 1500,
 *   agent_number: '123456',
 *   store_number: '654321',
 * });
 * if (!parsed.ok) throw new Error(parsed.errors.join(', '));
 * const outcome = await ledger.requestAgentFloat({ accountId: account.id, request: parsed.value });
 * if (outcome.kind === 'created') {
 *   await ledger.complete(outcome.transaction.reference, { providerCode: 'MNA-REF-0097' });
 * }
 * (await ledger.balance(account.id, 'float')).availableMinor; // 4850000n
 * (await ledger.verify()).ok; // true
 * await ledger.close();
 * ```
 */
export interface Ledger {
  createAccount(profile: AccountProfile, options?: ChangeOptions<Account>): Promise<Account>;
  getAccount(accountId: string): Promise<Account | undefined>;
  listAccounts(): Promise<Account[]>;
  /** `closed` is final. */
  setAccountStatus(
    accountId: string,
    status: AccountStatus,
    options?: ChangeOptions<Account>,
  ): Promise<Account>;
  /**
   * The token is shown once: `tk_test_` / `tk_live_` + 32 base62 characters; stored as a SHA-256 hash.
   * `options.alongside` is told the token's id only.
   */
  issueToken(
    accountId: string,
    mode: TokenMode,
    options?: ChangeOptions<{ tokenId: string }>,
  ): Promise<{ tokenId: string; token: string }>;
  revokeToken(tokenId: string, options?: ChangeOptions<{ tokenId: string }>): Promise<void>;
  listTokens(accountId: string): Promise<TokenInfo[]>;
  /** Unknown or revoked → undefined. */
  authenticate(token: string): Promise<AuthenticatedToken | undefined>;

  /**
   * Credits the channel from outside funding. `options.within` runs first in the same database
   * transaction: what it writes (an approval, an audit record) is committed with the credit or not at all,
   * and its throwing cancels the credit.
   */
  fund(
    accountId: string,
    channel: ChannelName,
    amountMinor: bigint,
    options?: FundOptions,
  ): Promise<ChannelBalance>;
  balance(accountId: string, channel: ChannelName): Promise<ChannelBalance>;

  /** Reserves the float (pending transfer); group-committed. */
  requestAgentFloat(input: {
    accountId: string;
    request: SendAgentFloatRequest;
    idempotency?: IdempotencyClaim;
    /** Aborted while the request still waits for its batch, it is withdrawn unapplied. */
    signal?: WithdrawalSignal;
  }): Promise<RequestOutcome>;
  /** Records the purchase; no money moves until it completes. Group-committed. */
  requestAirtime(input: {
    accountId: string;
    request: BuyAirtimeRequest;
    idempotency?: IdempotencyClaim;
    /** Aborted while the request still waits for its batch, it is withdrawn unapplied. */
    signal?: WithdrawalSignal;
  }): Promise<RequestOutcome>;
  /**
   * Reserves a send's total from the caller's Airtime channel and records one transaction per recipient,
   * in request order, all or none: `insufficient_balance` when the channel cannot cover the total.
   * Group-committed; a key holds the send's first transaction.
   */
  sendAirtime(input: {
    accountId: string;
    request: SendAirtimeRequest;
    idempotency?: IdempotencyClaim;
    /** Aborted while the request still waits for its batch, it is withdrawn unapplied. */
    signal?: WithdrawalSignal;
  }): Promise<SendAirtimeOutcome>;
  /** The transactions of the send whose first transaction is `sendReference`, in request order. */
  listSentAirtime(accountId: string, sendReference: string): Promise<TransactionRecord[]>;
  /**
   * Stores the answer to the keyed request that made transaction `reference`, only while the key still
   * holds that transaction and no answer; says what the key held instead when it did not.
   */
  saveIdempotentResponse(
    accountId: string,
    key: string,
    reference: string,
    response: StoredResponse,
  ): Promise<IdempotentSave>;
  findIdempotentResponse(accountId: string, key: string): Promise<StoredResponse | undefined>;
  /**
   * Gives back the key of a request that came to nothing (its transaction `reference` was voided before a
   * provider took it, as when the provider was unavailable), so a retry under the key is tried afresh
   * instead of replaying the failure. Returns false when the key holds another transaction or an answer.
   */
  releaseIdempotencyKey(accountId: string, key: string, reference: string): Promise<boolean>;
  /**
   * Deletes idempotency keys older than 24 hours (they no longer hold), at most `limit` (default 10000)
   * per call, and returns how many it deleted. Expired keys are otherwise never removed: call this
   * periodically, again at once while it returns `limit`.
   */
  purgeExpiredIdempotencyKeys(limit?: number): Promise<number>;
  markSubmitted(reference: string): Promise<void>;
  complete(reference: string, result: { providerCode: string; provider?: string }): Promise<ResolveOutcome>;
  cancel(reference: string, result: CancelResult): Promise<ResolveOutcome>;
  /**
   * Completions and cancellations refused because their transaction was already resolved the other way
   * (a provider's result after the timeout cancelled it), newest first, for reconciling with the provider.
   */
  listUnappliedResolutions(filter?: { reference?: string; limit?: number }): Promise<UnappliedResolution[]>;
  /** Only the caller's own transaction. */
  getTransaction(accountId: string, reference: string): Promise<TransactionRecord | undefined>;
  findTransaction(reference: string): Promise<TransactionRecord | undefined>;
  /**
   * Still requested, created before `olderThan`, oldest first; leaving out those whose leg is not to be
   * asked about again yet, or waits for an operator's review.
   */
  listExpired(olderThan: Date, limit: number): Promise<TransactionRecord[]>;
  /** The legs of a transaction, in the order they happen ([] when unknown or not yet submitted). */
  legs(reference: string): Promise<TransactionLeg[]>;
  /**
   * Notes that the provider has not settled the leg of still-requested transaction `reference`: when to
   * ask again and, once the reconciliation window is over, that it waits for an operator. Returns false
   * when there was nothing to note (the transaction is resolved, or its leg has ended).
   */
  noteUnsettledLeg(reference: string, leg: UnsettledLeg): Promise<boolean>;
  /** Purchases whose payment succeeded with a step of their chain due, oldest first (default at most 100). */
  purchasesUnderWay(limit?: number): Promise<PurchaseUnderWay[]>;
  /** Legs waiting for an operator's review, longest waiting first (default at most 100). */
  legsForReview(limit?: number): Promise<TransactionLeg[]>;
  /**
   * Applies one event to leg `leg` (`first`: the one it started with) of transaction `reference` as the
   * transition table
   * (`legTransition`) says, under the transaction's row lock: a provider's result, an answer that leaves
   * it unsettled, a submission's answer, the timeout, a worker's claim of a call, an operator's
   * settlement. A result that contradicts what is recorded moves nothing and puts the leg in review with
   * its evidence. Undefined when there is no such transaction.
   */
  applyLegEvent(
    reference: string,
    leg: LegKind | 'first',
    event: LegEvent,
  ): Promise<LegEventOutcome | undefined>;
  /** How many legs wait for an operator. */
  countLegsForReview(): Promise<number>;
  /**
   * Settles a leg waiting for review as the operator `by` established it with the provider, by the
   * transition table's settlement rows. A float's or a send's leg: `succeeded` completes it, `failed`
   * cancels it. A purchase's payment: `succeeded` records the payment (with the M-Pesa `receipt` the
   * operator found, which a refund names) and the chain goes on to deliver, or, for a purchase already
   * cancelled, to refund the payer; it never completes the purchase. A delivery: `succeeded` completes the
   * purchase while no refund was asked for; `failed` notes it and the worker refunds the payer. A refund:
   * `succeeded` cancels the purchase with the payment given back; `failed` is refused, since the payer
   * must have their money back first. A finding that agrees with what is recorded, or that money already
   * moved the other way, ends the review and moves nothing (`leg_settled`, with why). The leg records who
   * settled it and what was found. `leg_not_found` when no leg with that id waits.
   */
  settleReviewedLeg(
    id: string,
    settlement: { as: 'succeeded' | 'failed'; by: string; receipt?: string },
    options?: ChangeOptions<LegSettlement>,
  ): Promise<LegSettlement>;
  /** Requested and never submitted, created before `olderThan`, oldest first. */
  listUnsubmitted(olderThan: Date, limit: number): Promise<TransactionRecord[]>;

  findContact(accountId: string, mobile: string): Promise<Contact | undefined>;

  /**
   * Adds a callback endpoint; `endpoint_limit_reached` when the account already has `maxEndpoints`
   * (default 10) that are not removed. `options.alongside` is told the endpoint, never its secret.
   */
  addCallbackEndpoint(
    accountId: string,
    input: NewCallbackEndpoint,
    options?: { maxEndpoints?: number } & ChangeOptions<CallbackEndpoint>,
  ): Promise<{ endpoint: CallbackEndpoint; secret: string }>;
  /** Never secrets. */
  listCallbackEndpoints(accountId: string): Promise<CallbackEndpoint[]>;
  removeCallbackEndpoint(
    accountId: string,
    endpointId: string,
    options?: ChangeOptions<{ endpointId: string }>,
  ): Promise<boolean>;
  /** The new secret; `options.alongside` is told the endpoint's id only. */
  rotateCallbackSecret(
    accountId: string,
    endpointId: string,
    graceSeconds: number,
    options?: ChangeOptions<{ endpointId: string }>,
  ): Promise<string | undefined>;
  /** Current first, then the previous one while inside its grace period. */
  endpointSecrets(endpointId: string): Promise<string[]>;
  /**
   * Leases due deliveries, fairly across accounts (`ClaimOptions`); they come in account order, so pass
   * the last one's `accountId` as `afterAccountId` to the next claim to go round the accounts.
   */
  claimDeliveries(options: ClaimOptions): Promise<ClaimedDelivery[]>;
  /** Moves the delivery on only while `attempt.workerId` holds its lease; the attempt is kept either way. */
  recordDeliveryAttempt(deliveryId: string, attempt: DeliveryAttempt): Promise<void>;
  /** Gives up leases `workerId` holds on pending deliveries, recording no attempt; returns how many. */
  releaseDeliveries(workerId: string, deliveryIds: readonly string[]): Promise<number>;
  /** How many deliveries were queued again; `options.alongside` runs when there was at least one. */
  resendCallbacks(
    accountId: string,
    reference: string,
    endpointId?: string,
    options?: ChangeOptions<number>,
  ): Promise<number>;
  /**
   * Queues the account's failed deliveries created at or after `since` (an ISO 8601 date or date-time, in
   * the ledger's time zone without an offset) again, to its enabled endpoints or the one given, each with
   * its retry schedule started again: oldest first, at most `limit` (default 10,000) per call, with `more`
   * saying whether failed ones were left for another call. `alongside` runs when at least one was queued.
   */
  resendFailedCallbacks(
    accountId: string,
    options: { since: string; endpointId?: string; limit?: number } & ChangeOptions<FailedCallbacksResend>,
  ): Promise<FailedCallbacksResend>;
  /** The newest 500 deliveries the filter admits, with their attempts (for operators; callers page). */
  listDeliveries(
    accountId: string,
    filter: { reference?: string; status?: DeliveryStatus },
  ): Promise<DeliveryRecord[]>;
  /**
   * One page of the caller's deliveries, newest first, narrowed by `filter` (`DeliveryFilter`), each with
   * every attempt; pass the page's `nextCursor` back as `cursor` for the next one.
   */
  listDeliveryPage(accountId: string, filter?: DeliveryFilter): Promise<DeliveryPage>;
  /**
   * One page of the caller's transactions, newest first, narrowed by `filter` (`TransactionFilter`); pass
   * the page's `nextCursor` back as `cursor` for the next one.
   */
  listTransactions(accountId: string, filter?: TransactionFilter): Promise<TransactionPage>;
  /**
   * One page of the postings of the caller's channel, newest first, each with the posted balance before
   * and after it, and the channel's balance now; pass the page's `nextCursor` back as `cursor` for the
   * next one.
   */
  listStatement(accountId: string, channel: ChannelName, filter?: StatementFilter): Promise<StatementPage>;

  verify(): Promise<VerifyReport>;
  /** Flushes the batcher; does NOT close the store. */
  close(): Promise<void>;
}

const carriers: readonly Carrier[] = ['CarrierA', 'CarrierB', 'CarrierC'];
/** Keys deleted per purge call: bounded, so one call never holds a long transaction. */
const defaultPurgeLimit = 10_000;

function commissionTable(options: Partial<Record<Carrier, number>> = {}): Record<Carrier, number> {
  const table = { CarrierA: 0, CarrierB: 0, CarrierC: 0 };
  for (const carrier of carriers) {
    const points = options[carrier] ?? 0;
    if (!Number.isInteger(points) || points < 0 || points > 10_000) {
      throw new RangeError(
        `Expected ${carrier} commission in whole basis points from 0 to 10000, received ${String(points)}.`,
      );
    }
    table[carrier] = points;
  }
  return table;
}

/**
 * The ledger over a migrated store.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * await ledger.fund(account.id, 'float', 5_000_000n); // KES 50,000.00
 * (await ledger.balance(account.id, 'float')).availableMinor; // 5000000n
 * await ledger.close(); // flushes pending requests; the store stays open
 * await store.close();
 * ```
 */
export function createLedger(store: Store, options: LedgerOptions = {}): Ledger {
  const timeZone = options.timeZone ?? 'Africa/Nairobi';
  assertTimeZone(timeZone);
  const now = options.now ?? (() => new Date());
  const commissionBasisPoints = commissionTable(options.commissionBasisPoints);
  const beforeCommit = options.faultInjection?.beforeCommit;
  const authentications = createAuthenticationCache(options.authCacheMs ?? 0);

  // A send is one request of many transactions: a batch holds at most `maxSize` requests and about
  // `maxTransactions` transactions, so twenty sends of a hundred share one commit, not ten.
  const requests = createGroupCommit<RequestUnit, UnitOutcome>({
    maxWaitMs: options.batch?.maxWaitMs ?? 1,
    maxSize: options.batch?.maxSize ?? 256,
    weight: (unit) => unit.drafts.length,
    maxWeight: options.batch?.maxTransactions ?? 2048,
    async flush(batch) {
      const results = await store.transaction((tx) =>
        applyRequestBatch(tx, batch, {
          now: now(),
          timeZone,
          ...(beforeCommit === undefined ? {} : { beforeCommit }),
        }),
      );
      try {
        options.onBatch?.(batch.length);
      } catch {
        // The batch is committed: an observer's failure must not turn its callers' answers into errors.
      }
      return results;
    },
  });

  /**
   * Wakes the workers after a commit. The commit already happened, so a failure here must not turn it into
   * an error: an unannounced delivery is found by the workers' polling instead.
   */
  async function announceCallbacks(reference: string): Promise<void> {
    await store.notify(outbox.outboxChannel, reference).catch(() => undefined);
  }

  // Submissions are noted many at a time: one UPDATE for every reference that arrived meanwhile.
  const submissions = createGroupCommit<string, undefined>({
    maxWaitMs: 0,
    maxSize: options.batch?.maxSize ?? 256,
    flush: isolatingFailures(async (references) => {
      await markAllSubmitted(store, references, now());
      return references.map(() => ({ ok: true, value: undefined }));
    }),
  });

  async function resolveTogether(batch: readonly ResolutionRequest[]): Promise<ResolveOutcome[]> {
    const { outcomes, callbacks } = await store.transaction((tx) =>
      resolveBatch(tx, batch, { now: now(), timeZone, commissionBasisPoints }),
    );
    // Committed already: a failed wake-up must not fail the batch (its items would be retried one by one
    // and find themselves resolved). Workers poll, so the deliveries are found anyway.
    if (callbacks > 0) await announceCallbacks(batch[0]?.reference ?? '');
    return outcomes;
  }

  // Completions and cancellations are group-committed like requests.
  const resolutions = createGroupCommit<ResolutionRequest, ResolveOutcome>({
    maxWaitMs: options.batch?.maxWaitMs ?? 1,
    maxSize: options.batch?.maxSize ?? 256,
    flush: isolatingFailures(async (batch) => {
      const outcomes = await resolveTogether(batch);
      return outcomes.map((value) => ({ ok: true, value }));
    }),
  });

  // Leg events are group-committed too: every event that arrived meanwhile is decided under one lock of
  // their transactions' rows, and their completions share one resolution, so the ledger accounts every
  // completion touches are locked once a batch rather than once a purchase.
  const legEvents = createGroupCommit<LegEventRequest, LegEventOutcome | undefined>({
    maxWaitMs: options.batch?.maxWaitMs ?? 1,
    maxSize: options.batch?.maxSize ?? 256,
    flush: (batch) => applyLegEvents(store, batch, () => ({ now: now(), timeZone, commissionBasisPoints })),
  });

  async function requestOne(
    accountId: string,
    draft: TransactionDraft,
    idempotency: IdempotencyClaim | undefined,
    signal: WithdrawalSignal | undefined,
  ): Promise<RequestOutcome> {
    const outcome = await requests.submit({ accountId, idempotency, drafts: [draft], send: false }, signal);
    if (outcome.kind !== 'created') return outcome;
    const [transaction] = outcome.transactions;
    if (transaction === undefined) throw new Error('Expected the request to create one transaction.');
    return { kind: 'created', transaction, channel: outcome.channel };
  }

  const resolve = (reference: string, resolution: Resolution): Promise<ResolveOutcome> =>
    resolutions.submit({ reference, resolution });

  // Callback attempts are recorded many per transaction too. An endpoint that is gone takes the endpoint's
  // lock before its deliveries', as removing an endpoint does, so those are recorded first, one by one;
  // a repeated attempt of one delivery is recorded after the others.
  const attempts = createGroupCommit<{ deliveryId: string; attempt: DeliveryAttempt }, undefined>({
    maxWaitMs: options.batch?.maxWaitMs ?? 1,
    maxSize: options.batch?.maxSize ?? 256,
    flush: isolatingFailures(async (batch) => {
      const at = now();
      const seen = new Set<string>();
      const together = batch.filter(({ deliveryId, attempt }) => {
        const alone = attempt.outcome === 'endpoint_gone' || seen.has(deliveryId);
        seen.add(deliveryId);
        return !alone;
      });
      const gone = batch.filter(({ attempt }) => attempt.outcome === 'endpoint_gone');
      const repeated = batch.filter(
        (item) => item.attempt.outcome !== 'endpoint_gone' && !together.includes(item),
      );
      const recorded = await store.transaction(async (tx) => {
        for (const item of gone) await outbox.recordDeliveryAttempt(tx, item.deliveryId, item.attempt, at);
        const ids = await outbox.recordDeliveryAttempts(tx, together, at);
        for (const item of repeated)
          await outbox.recordDeliveryAttempt(tx, item.deliveryId, item.attempt, at);
        return ids;
      });
      return batch.map((item) =>
        !together.includes(item) || recorded.has(item.deliveryId)
          ? { ok: true, value: undefined }
          : {
              ok: false,
              error: new Error(`Expected callback delivery ${item.deliveryId} to exist, found none.`),
            },
      );
    }),
  });

  /**
   * Makes a change in one database transaction with what `options.alongside` writes beside it, told what
   * `told` makes of the result; `told` answers undefined when the change changed nothing.
   */
  function change<R, T = R>(
    run: (tx: Queryable) => Promise<R>,
    options: ChangeOptions<T> | undefined,
    told: (result: R) => T | undefined,
  ): Promise<R> {
    return store.transaction(async (tx) => {
      const result = await run(tx);
      const alongside = options?.alongside;
      const shown = alongside === undefined ? undefined : told(result);
      if (alongside !== undefined && shown !== undefined) await alongside(tx, shown);
      return result;
    });
  }

  async function findRecord(reference: string, accountId?: string): Promise<TransactionRecord | undefined> {
    const { rows } = await store.query<TransactionRow>(
      `SELECT ${transactionColumns} FROM transactions WHERE reference = $1 AND ($2::text IS NULL OR account_id = $2)`,
      [reference, accountId ?? null],
    );
    return rows[0] === undefined ? undefined : transactionRecordOf(rows[0], timeZone);
  }

  async function requireBalance(accountId: string, channel: ChannelName): Promise<ChannelBalance> {
    const balance = await readChannelBalance(store, accountId, channel);
    if (balance === undefined) throw new LedgerError('account_not_found', `No account ${accountId}.`);
    return balance;
  }

  return {
    createAccount: (profile, options) =>
      change(
        (tx) => accounts.createAccount(tx, profile, now()),
        options,
        (account) => account,
      ),
    getAccount: (accountId) => accounts.getAccount(store, accountId),
    listAccounts: () => accounts.listAccounts(store),
    async setAccountStatus(accountId, status, options) {
      const account = await change(
        (tx) => accounts.setAccountStatus(tx, accountId, status, now()),
        options,
        (changed) => changed,
      );
      authentications.forgetAccount(accountId);
      return account;
    },
    issueToken: (accountId, mode, options) =>
      change(
        (tx) => tokens.issueToken(tx, accountId, mode, now()),
        options,
        ({ tokenId }) => ({ tokenId }),
      ),
    async revokeToken(tokenId, options) {
      await change(
        (tx) => tokens.revokeToken(tx, tokenId, now()),
        options,
        () => ({ tokenId }),
      );
      authentications.forgetToken(tokenId);
    },
    listTokens: (accountId) => tokens.listTokens(store, accountId),
    authenticate: (token) =>
      authentications.get(tokens.hashToken(token), () => tokens.authenticate(store, token)),

    async fund(accountId, channel, amountMinor, options) {
      if (typeof amountMinor !== 'bigint' || amountMinor <= 0n) {
        throw new LedgerError(
          'invalid_input',
          `Expected a positive amount in cents, received ${String(amountMinor)}.`,
        );
      }
      return store.transaction(async (tx) => {
        await options?.within?.(tx);
        const account = await accounts.getAccount(tx, accountId);
        if (account === undefined) throw new LedgerError('account_not_found', `No account ${accountId}.`);
        if (account.status === 'closed')
          throw new LedgerError('account_closed', `Account ${accountId} is closed.`);
        const target = await findChannelAccount(tx, accountId, channel);
        if (target === undefined)
          throw new LedgerError('account_not_found', `No ${channel} channel for ${accountId}.`);
        const updated = await applyTransfers(
          tx,
          [
            {
              debitAccountId: systemAccountIds.funding,
              creditAccountId: target.id,
              amount: amountMinor,
              kind: 'single',
              purpose: 'funding',
            },
          ],
          now(),
        );
        const state = updated.get(target.id);
        if (state === undefined)
          throw new Error(`Expected the funded account ${target.code} among the updated ones.`);
        return channelBalanceOf(channel, state);
      });
    },
    balance: requireBalance,

    async requestAgentFloat({ accountId, request, idempotency: claim, signal }) {
      return requestOne(accountId, agentFloatDraft(accountId, request, now()), claim, signal);
    },
    async requestAirtime({ accountId, request, idempotency: claim, signal }) {
      return requestOne(accountId, airtimeDraft(accountId, request, now()), claim, signal);
    },
    async sendAirtime({ accountId, request, idempotency: claim, signal }) {
      const drafts = sentAirtimeDrafts(accountId, request, now());
      return requests.submit({ accountId, idempotency: claim, drafts, send: true }, signal);
    },
    async listSentAirtime(accountId, sendReference) {
      const { rows } = await store.query<TransactionRow>(
        `SELECT ${transactionColumns} FROM transactions
         WHERE send_reference = $1 AND account_id = $2 ORDER BY send_position`,
        [sendReference, accountId],
      );
      return rows.map((row) => transactionRecordOf(row, timeZone));
    },
    saveIdempotentResponse: (accountId, key, reference, response) =>
      idempotency.saveIdempotentResponse(store, accountId, key, reference, response),
    findIdempotentResponse: (accountId, key) =>
      idempotency.findIdempotentResponse(store, accountId, key, now()),
    releaseIdempotencyKey: (accountId, key, reference) =>
      idempotency.releaseKey(store, accountId, key, reference),
    async purgeExpiredIdempotencyKeys(limit = defaultPurgeLimit) {
      if (!Number.isInteger(limit) || limit < 1) {
        throw new LedgerError(
          'invalid_input',
          `Expected a purge limit of at least 1 key, received ${String(limit)}.`,
        );
      }
      return idempotency.purgeExpiredKeys(store, now(), limit);
    },
    markSubmitted: (reference) => submissions.submit(reference),
    complete: (reference, result) => resolve(reference, { kind: 'complete', ...result }),
    cancel: (reference, result) => resolve(reference, { kind: 'cancel', ...result }),
    listUnappliedResolutions: (filter = {}) => listUnappliedResolutions(store, filter),
    getTransaction: (accountId, reference) => findRecord(reference, accountId),
    findTransaction: (reference) => findRecord(reference),
    listExpired: (olderThan, limit) => listRequested(store, olderThan, limit, false, timeZone, now()),
    listUnsubmitted: (olderThan, limit) => listRequested(store, olderThan, limit, true, timeZone, now()),
    legs: (reference) => listLegs(store, reference),
    async noteUnsettledLeg(reference, leg) {
      const outcome = await legEvents.submit({
        reference,
        leg: 'first',
        event: { kind: 'open', ...leg, asked: true, said: leg.said ?? '' },
      });
      return outcome?.action === 'note open';
    },
    purchasesUnderWay: (limit = 100) => listPurchasesUnderWay(store, now(), limit, timeZone),
    legsForReview: (limit = 100) => listLegsForReview(store, limit),
    applyLegEvent: (reference, leg, event) => legEvents.submit({ reference, leg, event }),
    countLegsForReview: () => countLegsForReview(store),
    async settleReviewedLeg(id, settlement, recording) {
      const by = settlement.by.trim();
      if (by === '') {
        throw new LedgerError(
          'invalid_input',
          'Expected the name of the operator settling the leg, received none.',
        );
      }
      const named = parseLegId(id);
      if (named === undefined || !(await legWaitsForReview(store, id))) {
        throw new LedgerError(
          'leg_not_found',
          `Expected a leg waiting for review with id ${id}, found none.`,
        );
      }
      const receipt = settlement.receipt?.trim() ?? '';
      const leg = named.kind === 'payment' && options.chainedPurchases !== true ? 'first' : named.kind;
      const settlementOf = (outcome: LegEventOutcome): LegSettlement =>
        outcome.action === 'complete' || outcome.action.startsWith('cancel')
          ? { kind: 'resolved', transaction: outcome.transaction }
          : { kind: 'leg_settled', transaction: outcome.transaction, why: outcome.why };
      const alongside = recording?.alongside;
      const outcome = await applyLegEvent(
        store,
        named.reference,
        leg,
        { kind: 'settled', as: settlement.as, by, ...(receipt === '' ? {} : { receipt }) },
        { now: now(), timeZone, commissionBasisPoints },
        alongside === undefined ? undefined : (tx, applied) => alongside(tx, settlementOf(applied)),
      );
      return outcome === undefined ? { kind: 'not_found' } : settlementOf(outcome);
    },

    findContact: (accountId, mobile) => findContact(store, accountId, mobile),

    addCallbackEndpoint: (accountId, input, options) =>
      change(
        (tx) => endpoints.addCallbackEndpoint(tx, accountId, input, now(), options?.maxEndpoints),
        options,
        ({ endpoint }) => endpoint,
      ),
    listCallbackEndpoints: (accountId) => endpoints.listCallbackEndpoints(store, accountId),
    removeCallbackEndpoint: (accountId, endpointId, options) =>
      change(
        (tx) => endpoints.removeCallbackEndpoint(tx, accountId, endpointId, now()),
        options,
        (removed) => (removed ? { endpointId } : undefined),
      ),
    rotateCallbackSecret: (accountId, endpointId, graceSeconds, options) =>
      change(
        (tx) => endpoints.rotateCallbackSecret(tx, accountId, endpointId, graceSeconds, now()),
        options,
        (secret) => (secret === undefined ? undefined : { endpointId }),
      ),
    endpointSecrets: (endpointId) => endpoints.endpointSecrets(store, endpointId, now()),
    claimDeliveries: (claim) => outbox.claimDeliveries(store, claim, now()),
    recordDeliveryAttempt: (deliveryId, attempt) => attempts.submit({ deliveryId, attempt }),
    async releaseDeliveries(workerId, deliveryIds) {
      const released = await outbox.releaseDeliveries(store, workerId, deliveryIds, now());
      if (released > 0) await announceCallbacks(deliveryIds[0] ?? '');
      return released;
    },
    async resendCallbacks(accountId, reference, endpointId, options) {
      const count = await change(
        async (tx) => {
          const { rows } = await tx.query<TransactionRow>(
            `SELECT ${transactionColumns} FROM transactions WHERE reference = $1 AND account_id = $2`,
            [reference, accountId],
          );
          if (rows[0] === undefined) return 0;
          const record = transactionRecordOf(rows[0], timeZone);
          const channel = await readChannelBalance(
            tx,
            accountId,
            record.type === 'Airtime' ? 'airtime' : 'float',
          );
          if (channel === undefined) return 0;
          return outbox.requeueCallbacks(tx, record, channel, now(), endpointId);
        },
        options,
        (queued) => (queued > 0 ? queued : undefined),
      );
      if (count > 0) await announceCallbacks(reference);
      return count;
    },
    async resendFailedCallbacks(accountId, options) {
      const { since, endpointId, limit = outbox.failedResendLimit } = options;
      const resend = await change(
        (tx) => outbox.requeueFailedCallbacks(tx, accountId, { since, endpointId, limit }, now(), timeZone),
        options,
        (queued) => (queued.kind === 'queued' && queued.queued > 0 ? queued : undefined),
      );
      if (resend.kind === 'queued' && resend.queued > 0) await announceCallbacks(accountId);
      return resend;
    },
    // One snapshot for the deliveries and their attempts (of each listing below): read apart, an attempt committed between the two
    // reads shows beside a delivery row from before it (an error in the attempt, none on the delivery).
    listDeliveries: (accountId, filter) =>
      store.transaction(async (tx) => {
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        return outbox.listDeliveries(tx, accountId, filter, timeZone);
      }),
    listDeliveryPage: (accountId, filter = {}) =>
      store.transaction(async (tx) => {
        await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
        return outbox.listDeliveryPage(tx, accountId, filter, timeZone);
      }),
    listTransactions: (accountId, filter = {}) =>
      listTransactions(store, accountId, filter, { timeZone, now: now() }),
    listStatement: (accountId, channel, filter = {}) =>
      listStatement(store, accountId, channel, filter, timeZone),

    verify: () => verifyLedger(store),
    async close() {
      await requests.close();
      await submissions.close();
      await resolutions.close();
      await legEvents.close();
      await attempts.close();
    },
  };
}
