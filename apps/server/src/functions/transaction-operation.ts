// The flow both money operations share: reserve through the ledger (group-committed, idempotent), submit
// to the provider within the request, and answer. An immediate refusal voids and answers 8000; an
// unavailable or silent provider voids and answers 9000. The reply to a keyed request is stored, so a
// retry with the same key replays it byte for byte.

import { setTimeout as sleep } from 'node:timers/promises';
import { alternateHttpStatus, failure, success } from '@topup/envelope';
import type { CancellableOperation, Envelope } from '@topup/envelope';
import { transactionData } from '@topup/ledger';
import type {
  Account,
  ChannelBalance,
  RequestOutcome,
  StoredResponse,
  TransactionRecord,
} from '@topup/ledger';
import { submitWithin } from '@topup/worker';
import type { Logger } from 'pino';
import { ApiFailure } from '../api-failure.js';
import { encodeReply } from '../reply.js';
import type { ApiDependencies, HandlerInput, HandlerResult } from './api-function.js';
import { requestFingerprint } from './idempotency-key.js';

export interface TransactionOperation<I> {
  readonly name: CancellableOperation;
  readonly requestedMessage: string;
  readonly channel: 'float' | 'airtime';
  reserve(
    deps: ApiDependencies,
    accountId: string,
    input: I,
    idempotency: { key: string; requestHash: string } | undefined,
    /** Aborted when the request's store time runs out: a request still queued for its batch is withdrawn. */
    signal: AbortSignal,
  ): Promise<RequestOutcome>;
}

/** Extra time, beyond the provider timeout, after which an unanswered keyed request is taken as dead. */
const abandonedAfterMs = 2_000;
const pollIntervalMs = 25;

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

async function awaitFirstReply<I>(
  input: HandlerInput<I>,
  operation: TransactionOperation<I>,
  key: string,
  reference: string,
): Promise<HandlerResult> {
  const { account, ctx } = input;
  const deadline = Date.now() + input.deps.config.idempotencyWaitMs;
  const look = async (deps: ApiDependencies): Promise<HandlerResult | undefined> => {
    const stored = await deps.ledger.findIdempotentResponse(account.id, key);
    if (stored !== undefined) return replay(stored);
    const transaction = await deps.ledger.getTransaction(account.id, reference);
    const abandoned =
      transaction !== undefined &&
      Date.now() - transaction.createdAt.getTime() > deps.config.providerTimeoutMs + abandonedAfterMs;
    if (transaction === undefined || !abandoned) return undefined;
    const answer = await answerFromState(deps, operation, transaction, account);
    const reply = encodeReply(answer.envelope, ctx.state.negotiated, answer.httpStatus);
    await deps.ledger.saveIdempotentResponse(account.id, key, storedOf(reply));
    return { kind: 'encoded', reply, headers: {} };
  };
  for (;;) {
    const answered = await look(input.renewedDeps());
    if (answered !== undefined) return answered;
    if (Date.now() >= deadline) {
      throw new ApiFailure(
        '5000',
        ['a request with this Idempotency-Key is still being processed; retry later'],
        {
          httpStatus: alternateHttpStatus.idempotencyConflict,
          headers: { 'Retry-After': '1' },
        },
      );
    }
    await sleep(pollIntervalMs);
  }
}

function replay(stored: StoredResponse): HandlerResult {
  return {
    kind: 'encoded',
    reply: { httpStatus: stored.httpStatus, contentType: stored.contentType, body: stored.body },
    headers: { 'Idempotency-Replayed': 'true' },
  };
}

function storedOf(reply: { httpStatus: number; contentType: string; body: string }): StoredResponse {
  return { httpStatus: reply.httpStatus, contentType: reply.contentType, body: reply.body };
}

async function resolveSubmission<I>(
  deps: ApiDependencies,
  log: Logger,
  operation: TransactionOperation<I>,
  transaction: TransactionRecord,
  channel: ChannelBalance,
  account: Account,
): Promise<{ envelope: Envelope; httpStatus: number; cameToNothing?: boolean }> {
  const submitted = await submitWithin(deps.provider, transaction, deps.config.providerTimeoutMs);
  if (submitted.kind === 'accepted') {
    // The answer does not wait for this note: without it the worker submits the transaction again after
    // the provider timeout, keyed by its reference, which is exactly the recovery from a crash right here.
    deps.ledger.markSubmitted(transaction.reference).catch((error: unknown) => {
      log.warn({ err: error, reference: transaction.reference }, 'noting a submission failed');
    });
    return { envelope: successEnvelope(operation, transaction, channel, account), httpStatus: 200 };
  }
  if (submitted.kind === 'refused') {
    await deps.ledger.cancel(transaction.reference, {
      reason: submitted.reason,
      providerCode: submitted.providerCode,
    });
    return { envelope: failure('8000', [submitted.reason], { operation: operation.name }), httpStatus: 409 };
  }
  await deps.ledger.cancel(transaction.reference, { reason: submitted.reason });
  return {
    envelope: failure('9000', [submitted.reason]),
    httpStatus: 502,
    cameToNothing: submitted.taken === false,
  };
}

export function transactionHandler<I>(operation: TransactionOperation<I>) {
  return async (input: HandlerInput<I>): Promise<HandlerResult> => {
    const { deps, account, ctx } = input;
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
        return awaitFirstReply(input, operation, key ?? '', outcome.reference);
      case 'idempotency_conflict':
        throw new ApiFailure('5000', ['this Idempotency-Key was already used with a different request'], {
          httpStatus: alternateHttpStatus.idempotencyConflict,
        });
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
        const reply = encodeReply(answer.envelope, ctx.state.negotiated, answer.httpStatus);
        // A provider that said it did not take the transaction leaves nothing to replay: the key is given
        // back, so the retry a 9000 invites is tried afresh. A silent provider may have taken it, so its
        // answer is kept and replayed, and a retry never makes a second transaction of an unknown one.
        if (key !== undefined && answer.cameToNothing === true) {
          await deps.ledger.releaseIdempotencyKey(account.id, key, outcome.transaction.reference);
        } else if (key !== undefined) {
          await deps.ledger.saveIdempotentResponse(account.id, key, storedOf(reply));
        }
        ctx.state.code = answer.envelope.status.code;
        return { kind: 'encoded', reply, headers: {} };
      }
    }
  };
}
