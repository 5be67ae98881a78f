// The flow of a money operation that makes one transaction (send_agent_float, buy_airtime): reserve through the ledger (group-committed, idempotent), submit
// to the provider within the request, and answer. An immediate refusal voids and answers 8000; an
// unavailable or silent provider voids and answers 9000, unless the transaction was resolved meanwhile, in
// which case its real state is the answer. The reply to a keyed request is stored under the key only while
// the key still holds that very transaction, so a retry with the same key replays it byte for byte and a
// key given back and claimed again never takes an answer about the transaction before.

import { failure, success } from '@topup/envelope';
import type { CancellableOperation, Envelope } from '@topup/envelope';
import { transactionData } from '@topup/ledger';
import type {
  Account,
  ChannelBalance,
  RequestOutcome,
  TransactionRecord,
  WithdrawalSignal,
} from '@topup/ledger';
import { firstLegNetwork, unservedNetwork } from '@topup/providers';
import { submitWithin } from '@topup/worker';
import type { Logger } from 'pino';
import { ApiFailure } from '../api-failure.js';
import type { ApiDependencies, HandlerInput, HandlerResult } from './api-function.js';
import { requestFingerprint } from './idempotency-key.js';
import { holdUnknown, noteAccepted } from './submission-notes.js';
import {
  abandonedAfterMs,
  answerClaimed,
  type ClaimedAnswer,
  awaitFirstReply,
  idempotencyConflict,
  replay,
  type AbandonedAnswer,
} from './keyed-replies.js';

export interface TransactionOperation<I> {
  readonly name: CancellableOperation;
  readonly requestedMessage: string;
  readonly channel: 'float' | 'airtime';
  /** The networks the request needs a provider for: the one that carries it, and a payer's. */
  networks(input: I): readonly string[];
  reserve(
    deps: ApiDependencies,
    accountId: string,
    input: I,
    idempotency: { key: string; requestHash: string } | undefined,
    /** Aborted when the request's store time runs out: a request still queued for its batch is withdrawn. */
    signal: WithdrawalSignal,
  ): Promise<RequestOutcome>;
}

function successEnvelope<I>(
  operation: TransactionOperation<I>,
  transaction: TransactionRecord,
  channel: ChannelBalance,
  account: Account,
): Envelope {
  return success(operation.requestedMessage, transactionData(transaction, channel, account));
}

/** The answer a transaction's current state gives, for a keyed retry whose first request died. */
async function answerFromState<I>(
  deps: ApiDependencies,
  operation: TransactionOperation<I>,
  transaction: TransactionRecord,
  account: Account,
): Promise<{ envelope: Envelope; httpStatus: number }> {
  if (transaction.state === 'cancelled') {
    // The answer the first request gave: a provider's refusal carries its code (8000); a provider that was
    // unavailable or silent left none (9000).
    if (transaction.code === '') {
      return { envelope: failure('9000', [transaction.cancelReason]), httpStatus: 502 };
    }
    return {
      envelope: failure('8000', [transaction.cancelReason], { operation: operation.name }),
      httpStatus: 409,
    };
  }
  const channel = await deps.ledger.balance(account.id, operation.channel);
  return { envelope: successEnvelope(operation, transaction, channel, account), httpStatus: 200 };
}

/** A dead first request's answer: its transaction's state, once the transaction is old enough. */
function abandonedTransaction<I>(
  input: HandlerInput<I>,
  operation: TransactionOperation<I>,
): AbandonedAnswer {
  return async (deps, reference) => {
    const transaction = await deps.ledger.getTransaction(input.account.id, reference);
    const abandoned =
      transaction !== undefined &&
      Date.now() - transaction.createdAt.getTime() > abandonedAfterMs(deps.config);
    if (transaction === undefined || !abandoned) return undefined;
    return answerFromState(deps, operation, transaction, input.account);
  };
}

async function resolveSubmission<I>(
  deps: ApiDependencies,
  log: Logger,
  operation: TransactionOperation<I>,
  transaction: TransactionRecord,
  channel: ChannelBalance,
  account: Account,
): Promise<ClaimedAnswer> {
  const network = firstLegNetwork(transaction);
  const provider = deps.providers.forNetwork(network);
  if (provider === undefined) {
    // Checked before the reservation; only a configuration changed in between gets here.
    throw new Error(`Expected a provider for ${network}, found none.`);
  }
  const submitted = await submitWithin(provider, transaction, deps.config.providerTimeoutMs);
  if (submitted.kind === 'unknown') {
    await holdUnknown(deps, log, transaction, provider.name, submitted.detail ?? submitted.reason);
    return { envelope: successEnvelope(operation, transaction, channel, account), httpStatus: 200 };
  }
  if (submitted.kind === 'accepted') {
    noteAccepted(deps, log, transaction.reference);
    return { envelope: successEnvelope(operation, transaction, channel, account), httpStatus: 200 };
  }
  if (submitted.kind === 'unavailable' && submitted.detail !== undefined) {
    // The request's log line carries its request id, which the operator can match to the caller's.
    log.error(
      { reference: transaction.reference, providerError: submitted.detail },
      'the provider failed a submission; the transaction is cancelled',
    );
  }
  const refused = submitted.kind === 'refused';
  const cancelled = await deps.ledger.cancel(
    transaction.reference,
    refused
      ? { reason: submitted.reason, providerCode: submitted.providerCode, provider: provider.name }
      : { reason: submitted.reason, provider: provider.name },
  );
  if (cancelled.kind !== 'resolved') {
    // Resolved meanwhile (a result the worker applied while the submission hung): its state is the truth.
    if (cancelled.kind === 'not_found') {
      throw new Error(`Expected transaction ${transaction.reference} to exist, found none.`);
    }
    log.warn(
      { reference: transaction.reference, state: cancelled.transaction.state },
      'the provider did not take the submission, but the transaction was already resolved; answering its state',
    );
    return answerFromState(deps, operation, cancelled.transaction, account);
  }
  if (refused) {
    return { envelope: failure('8000', [submitted.reason], { operation: operation.name }), httpStatus: 409 };
  }
  return {
    envelope: failure('9000', [submitted.reason]),
    httpStatus: 502,
    cameToNothing: submitted.taken === false,
  };
}

export function transactionHandler<I>(operation: TransactionOperation<I>) {
  return async (input: HandlerInput<I>): Promise<HandlerResult> => {
    const { deps, account, ctx } = input;
    const unserved = unservedNetwork(deps.providers, operation.networks(input.input));
    if (unserved !== undefined) {
      throw new ApiFailure('5000', [
        `network ${unserved} is not served here: no provider is configured for it`,
      ]);
    }
    const key = ctx.state.idempotencyKey;
    const idempotency =
      key === undefined ? undefined : { key, requestHash: requestFingerprint(operation.name, input.input) };
    const outcome = await operation.reserve(
      deps,
      account.id,
      input.input,
      idempotency,
      ctx.state.storeBudget.signal,
    );
    switch (outcome.kind) {
      case 'idempotent_replay':
        return replay(outcome.response);
      case 'idempotency_in_progress':
        return awaitFirstReply(input, abandonedTransaction(input, operation), key ?? '', outcome.reference);
      case 'idempotency_conflict':
        throw idempotencyConflict();
      case 'insufficient_balance':
        throw new ApiFailure('7000', [
          `the ${operation.channel === 'float' ? 'Agent Float' : 'Airtime'} channel cannot cover the amount`,
        ]);
      case 'created': {
        const answer = await resolveSubmission(
          deps,
          ctx.state.log,
          operation,
          outcome.transaction,
          outcome.channel,
          account,
        );
        return answerClaimed(input, key, outcome.transaction.reference, answer);
      }
    }
  };
}
