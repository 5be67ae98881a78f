// What the ledger answers to a transaction request and to a resolution (complete or cancel).

import type { ChannelBalance } from './ledger-accounts.js';
import type { TransactionRecord } from './transaction-record.js';

/**
 * A response stored under an idempotency key, replayed byte for byte.
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
 *
 * const idempotency = { key: 'order-1042', requestHash: 'sha256-of-the-body' };
 * const outcome = await ledger.requestAgentFloat({
 *   accountId: account.id,
 *   request: parsed.value,
 *   idempotency,
 * });
 * if (outcome.kind !== 'created') throw new Error(outcome.kind);
 * await ledger.saveIdempotentResponse(account.id, idempotency.key, outcome.transaction.reference, {
 *   httpStatus: 200,
 *   contentType: 'application/json',
 *   body: '{"status":{}}',
 * });
 * const replay = await ledger.requestAgentFloat({
 *   accountId: account.id,
 *   request: parsed.value,
 *   idempotency,
 * });
 * replay.kind === 'idempotent_replay' ? replay.response.httpStatus : undefined; // 200
 * ```
 */
export interface StoredResponse {
  httpStatus: number;
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

/**
 * What the ledger did with a transaction request: created it, refused it for lack of balance, or found
 * its idempotency key already used.
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
 *
 * const outcome = await ledger.requestAgentFloat({ accountId: account.id, request: parsed.value });
 * switch (outcome.kind) {
 *   case 'created':
 *     console.log(outcome.transaction.reference, outcome.channel.availableMinor);
 *     break;
 *   case 'insufficient_balance':
 *     console.log('7000: available', outcome.channel.availableMinor);
 *     break;
 *   default:
 *     console.log(outcome.kind);
 * }
 * ```
 */
export type RequestOutcome =
  | { kind: 'created'; transaction: TransactionRecord; channel: ChannelBalance }
  /** Paid from the caller's channel (float, airtime sent from the balance); nothing was written. */
  | { kind: 'insufficient_balance'; channel: ChannelBalance }
  /** Same key, same request hash, and the first response is stored. */
  | { kind: 'idempotent_replay'; response: StoredResponse }
  /** Same key, same request hash, but the first request has not stored its response yet. */
  | { kind: 'idempotency_in_progress'; reference: string }
  /** Same key with another request hash, within the key's 24 hours. */
  | { kind: 'idempotency_conflict' };

/**
 * What the ledger did with a `send_airtime` request: as `RequestOutcome`, but a created send has one
 * transaction per recipient, in request order, and the Airtime channel after the whole reservation.
 *
 * @example
 * ```ts
 * import type { SendAirtimeOutcome } from '@topup/ledger';
 *
 * function references(outcome: SendAirtimeOutcome): string[] {
 *   return outcome.kind === 'created' ? outcome.transactions.map((transaction) => transaction.reference) : [];
 * }
 * ```
 */
export type SendAirtimeOutcome =
  | Exclude<RequestOutcome, { kind: 'created' }>
  | { kind: 'created'; transactions: TransactionRecord[]; channel: ChannelBalance };

/**
 * What a completion or cancellation did: resolved the transaction, found it already resolved (nothing
 * changed), or found no such transaction.
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
 *
 * const outcome = await ledger.requestAgentFloat({ accountId: account.id, request: parsed.value });
 * if (outcome.kind === 'created') {
 *   (await ledger.complete(outcome.transaction.reference, { providerCode: 'MNA-REF-0097' })).kind; // 'resolved'
 *   (await ledger.cancel(outcome.transaction.reference, { reason: 'late' })).kind; // 'already_resolved'
 * }
 * (await ledger.complete('TXUNKNOWN', { providerCode: '' })).kind; // 'not_found'
 * ```
 */
export type ResolveOutcome =
  | { kind: 'resolved'; transaction: TransactionRecord }
  | { kind: 'already_resolved'; transaction: TransactionRecord }
  | { kind: 'not_found' };

/**
 * What an operator's settlement of a leg did: resolved its transaction, or (`leg_settled`) noted the leg
 * while its transaction goes on (a failed delivery, whose payment the worker then refunds).
 *
 * @example
 * ```ts
 * import type { LegSettlement } from '@topup/ledger';
 *
 * const changedSomething = (settlement: LegSettlement) =>
 *   settlement.kind === 'resolved' || settlement.kind === 'leg_settled';
 * ```
 */
export type LegSettlement =
  ResolveOutcome | { kind: 'leg_settled'; transaction: TransactionRecord; why: string };
