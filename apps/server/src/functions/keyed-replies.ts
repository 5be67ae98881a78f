// The answers a money operation gives under an `Idempotency-Key` once its first request has claimed the
// key: the stored reply replayed byte for byte, or, while the first request still runs, a wait for it. A
// first request that died unanswered is answered from the state of what it created, once it is older than
// any live request can be; the key keeps one answer, whichever request stores it first.

import { setTimeout as sleep } from 'node:timers/promises';
import { alternateHttpStatus } from '@topup/envelope';
import type { Envelope } from '@topup/envelope';
import type { StoredResponse } from '@topup/ledger';
import { ApiFailure } from '../api-failure.js';
import { encodeReply } from '../reply.js';
import type { ApiDependencies, HandlerInput, HandlerResult } from './api-function.js';

/**
 * Extra time, beyond the longest a request can legitimately take (its store deadline plus the provider
 * timeout), after which an unanswered keyed request is taken as dead and answered from its transaction.
 */
const abandonedMarginMs = 2_000;
const pollIntervalMs = 25;

/** How old a keyed request's transaction must be, unanswered, before a retry answers for it. */
export function abandonedAfterMs(config: ApiDependencies['config']): number {
  return config.storeTimeouts.requestDeadlineMs + config.providerTimeoutMs + abandonedMarginMs;
}

/** An answer from the state of what a dead first request created. */
export interface StateAnswer {
  readonly envelope: Envelope;
  readonly httpStatus: number;
}

/**
 * The answer for the first request's transaction `reference`, from its current state, once that request
 * is taken as dead; undefined while it may still be running (or its transaction is not to be found).
 */
export type AbandonedAnswer = (deps: ApiDependencies, reference: string) => Promise<StateAnswer | undefined>;

export function replay(stored: StoredResponse): HandlerResult {
  return {
    kind: 'encoded',
    reply: { httpStatus: stored.httpStatus, contentType: stored.contentType, body: stored.body },
    headers: { 'Idempotency-Replayed': 'true' },
  };
}

export function storedOf(reply: { httpStatus: number; contentType: string; body: string }): StoredResponse {
  return { httpStatus: reply.httpStatus, contentType: reply.contentType, body: reply.body };
}

/** The `5000` for a key already used with another request. */
export function idempotencyConflict(): ApiFailure {
  return new ApiFailure('5000', ['this Idempotency-Key was already used with a different request'], {
    httpStatus: alternateHttpStatus.idempotencyConflict,
  });
}

/** What a request that claimed its key answers, and whether it came to nothing (a 9000 that took nothing). */
export interface ClaimedAnswer extends StateAnswer {
  readonly cameToNothing?: boolean;
}

/**
 * Encodes the answer of the request that made transaction `reference` (a send's first) and keeps it under
 * `key`, so a retry replays it byte for byte. A request that came to nothing leaves nothing to replay: the
 * key is given back, so the retry a 9000 invites is tried afresh. A silent provider may have taken it, so
 * its answer is kept, and a retry never makes a second transaction of an unknown one. The key is this
 * request's own claim; should a retry have answered for it first, the key keeps that one answer, and it is
 * the one given.
 */
export async function answerClaimed<I>(
  input: HandlerInput<I>,
  key: string | undefined,
  reference: string,
  answer: ClaimedAnswer,
): Promise<HandlerResult> {
  const { deps, account, ctx } = input;
  const reply = encodeReply(answer.envelope, ctx.state.negotiated, answer.httpStatus);
  if (key !== undefined && answer.cameToNothing === true) {
    await deps.ledger.releaseIdempotencyKey(account.id, key, reference);
  } else if (key !== undefined) {
    const saved = await deps.ledger.saveIdempotentResponse(account.id, key, reference, storedOf(reply));
    if (saved.kind === 'answered') return replay(saved.response);
  }
  ctx.state.code = answer.envelope.status.code;
  return { kind: 'encoded', reply, headers: {} };
}

/** Waits for the answer of the request that holds `key` (its first transaction `firstReference`). */
export async function awaitFirstReply<I>(
  input: HandlerInput<I>,
  answerAbandoned: AbandonedAnswer,
  key: string,
  firstReference: string,
): Promise<HandlerResult> {
  const { account, ctx } = input;
  const deadline = Date.now() + input.deps.config.idempotencyWaitMs;
  // The transaction the key holds; it changes when the key is given back and a retry claims it again.
  let reference = firstReference;
  const look = async (deps: ApiDependencies): Promise<HandlerResult | undefined> => {
    const stored = await deps.ledger.findIdempotentResponse(account.id, key);
    if (stored !== undefined) return replay(stored);
    const answer = await answerAbandoned(deps, reference);
    if (answer === undefined) return undefined;
    const reply = encodeReply(answer.envelope, ctx.state.negotiated, answer.httpStatus);
    const saved = await deps.ledger.saveIdempotentResponse(account.id, key, reference, storedOf(reply));
    switch (saved.kind) {
      case 'saved':
      case 'absent':
        // Absent: the key was given back because its transaction came to nothing, which is the answer.
        return { kind: 'encoded', reply, headers: {} };
      case 'answered':
        return replay(saved.response);
      case 'held_by_another':
        reference = saved.reference;
        return undefined;
    }
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
