// `send_airtime`: airtime to many recipients from the caller's Airtime balance. The ledger reserves the
// total in one step (`7000` when the channel cannot cover it) and records one transaction per recipient;
// each is then submitted to its carrier's provider, a bounded number at a time, within the request. A
// recipient refused at once, or whose provider said it took nothing, is cancelled and its amount released;
// one whose provider went silent stays requested for the worker to send again or ask about; the others go
// on. The answer lists every recipient's transaction in request order. Only when every recipient came to
// nothing is the answer `9000`, and the key is given back, so the retry `9000` invites is tried afresh.

import { failure, success, successMessages } from '@topup/envelope';
import type { Envelope } from '@topup/envelope';
import { sendAirtimeData } from '@topup/ledger';
import type { Account, ChannelBalance, TransactionRecord } from '@topup/ledger';
import { firstLegNetwork, unservedNetwork } from '@topup/providers';
import type { SendAirtimeRequest } from '@topup/validation';
import { SUBMISSION_MARGIN_MS, submitWithin } from '@topup/worker';
import type { Logger } from 'pino';
import { ApiFailure } from '../api-failure.js';
import type { ApiDependencies, HandlerInput, HandlerResult } from './api-function.js';
import { requestFingerprint } from './idempotency-key.js';
import {
  abandonedAfterMs,
  answerClaimed,
  type ClaimedAnswer,
  awaitFirstReply,
  idempotencyConflict,
  replay,
  type AbandonedAnswer,
} from './keyed-replies.js';
import { holdUnknown, noteAccepted } from './submission-notes.js';

/**
 * How many recipients are with their providers at once: enough that a thousand go out well within a
 * second, few enough that one request never opens a thousand connections to a carrier.
 */
const submissionsInFlight = 32;

/** Where one recipient stands once its submission is answered, or left to the worker. */
interface Submitted {
  readonly transaction: TransactionRecord;
  /** Its provider said it took nothing, so it was cancelled with nothing done. */
  readonly cameToNothing?: true;
}

function sendEnvelope(
  transactions: readonly TransactionRecord[],
  channel: ChannelBalance,
  account: Account,
): Envelope {
  return success(successMessages.airtimeSendRequested, sendAirtimeData(transactions, channel, account));
}

async function submitOne(
  deps: ApiDependencies,
  log: Logger,
  transaction: TransactionRecord,
): Promise<Submitted> {
  const network = firstLegNetwork(transaction);
  const provider = deps.providers.forNetwork(network);
  // Checked before the reservation; only a configuration changed in between gets here.
  if (provider === undefined) throw new Error(`Expected a provider for ${network}, found none.`);
  const submitted = await submitWithin(provider, transaction, deps.config.providerTimeoutMs);
  if (submitted.kind === 'accepted') {
    noteAccepted(deps, log, transaction.reference);
    return { transaction };
  }
  if (submitted.kind === 'unknown') {
    await holdUnknown(deps, log, transaction, provider.name, submitted.detail ?? submitted.reason);
    return { transaction };
  }
  if (submitted.kind === 'unavailable' && submitted.taken !== false) {
    // A provider that deduplicates went silent or failed: it may have taken the recipient, so cancelling
    // could refund airtime it delivers. Left requested and unmarked, it is sent again under the same key
    // by the worker, which takes every unmarked transaction past the provider timeout.
    log.warn(
      { reference: transaction.reference, providerError: submitted.detail ?? submitted.reason },
      'the provider did not answer a recipient; the worker sends it again',
    );
    return { transaction };
  }
  const cancelled = await deps.ledger.cancel(
    transaction.reference,
    submitted.kind === 'refused'
      ? { reason: submitted.reason, providerCode: submitted.providerCode, provider: provider.name }
      : { reason: submitted.reason, provider: provider.name },
  );
  if (cancelled.kind === 'not_found') {
    throw new Error(`Expected transaction ${transaction.reference} to exist, found none.`);
  }
  // Resolved meanwhile by a result the worker applied: its state is the truth.
  const settled = cancelled.transaction;
  return cancelled.kind === 'resolved' && submitted.kind === 'unavailable'
    ? { transaction: settled, cameToNothing: true }
    : { transaction: settled };
}

/**
 * Submits the transactions, `submissionsInFlight` at a time, and answers in request order. A submission
 * starts only within half the worker's margin of the send's creation, so every one ends before the worker
 * may take an unmarked transaction as interrupted; the recipients a slow provider leaves unstarted are
 * the worker's to send, and stay requested in the answer.
 */
async function submitAll(
  deps: ApiDependencies,
  log: Logger,
  transactions: readonly TransactionRecord[],
): Promise<Submitted[]> {
  const answers: Submitted[] = transactions.map((transaction) => ({ transaction }));
  const startBy = (transactions[0]?.createdAt.getTime() ?? 0) + SUBMISSION_MARGIN_MS / 2;
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < transactions.length && Date.now() < startBy) {
      const index = next;
      next += 1;
      answers[index] = await submitOne(deps, log, transactions[index] as TransactionRecord);
    }
  };
  await Promise.all(Array.from({ length: Math.min(submissionsInFlight, transactions.length) }, lane));
  if (next < transactions.length) {
    log.warn(
      { left: transactions.length - next, first: transactions[next]?.reference },
      'a send’s providers were slow; the recipients not yet submitted are left to the worker',
    );
  }
  return answers;
}

function answerOf(submitted: readonly Submitted[], channel: ChannelBalance, account: Account): ClaimedAnswer {
  if (submitted.every((entry) => entry.cameToNothing === true)) {
    return {
      envelope: failure('9000', [submitted[0]?.transaction.cancelReason ?? '']),
      httpStatus: 502,
      cameToNothing: true,
    };
  }
  return {
    envelope: sendEnvelope(
      submitted.map((entry) => entry.transaction),
      channel,
      account,
    ),
    httpStatus: 200,
    cameToNothing: false,
  };
}

/** A dead first request's answer: its send's transactions as they stand, once they are old enough. */
function abandonedSend(account: Account): AbandonedAnswer {
  return async (deps, reference) => {
    const transactions = await deps.ledger.listSentAirtime(account.id, reference);
    const [first] = transactions;
    // A send starts its last submission at most half the worker's margin after its creation.
    const age = first === undefined ? 0 : Date.now() - first.createdAt.getTime();
    if (first === undefined || age <= abandonedAfterMs(deps.config) + SUBMISSION_MARGIN_MS / 2) {
      return undefined;
    }
    const channel = await deps.ledger.balance(account.id, 'airtime');
    return { envelope: sendEnvelope(transactions, channel, account), httpStatus: 200 };
  };
}

export async function sendAirtime(input: HandlerInput<SendAirtimeRequest>): Promise<HandlerResult> {
  const { deps, account, ctx } = input;
  const request = input.input;
  const unserved = unservedNetwork(
    deps.providers,
    request.recipients.map((recipient) => recipient.network),
  );
  if (unserved !== undefined) {
    throw new ApiFailure('5000', [
      `network ${unserved} is not served here: no provider is configured for it`,
    ]);
  }
  const key = ctx.state.idempotencyKey;
  const idempotency =
    key === undefined ? undefined : { key, requestHash: requestFingerprint('send_airtime', request) };
  const outcome = await deps.ledger.sendAirtime({
    accountId: account.id,
    request,
    ...(idempotency === undefined ? {} : { idempotency }),
    signal: ctx.state.storeBudget.signal,
  });
  switch (outcome.kind) {
    case 'idempotent_replay':
      return replay(outcome.response);
    case 'idempotency_in_progress':
      return awaitFirstReply(input, abandonedSend(account), key ?? '', outcome.reference);
    case 'idempotency_conflict':
      throw idempotencyConflict();
    case 'insufficient_balance':
      throw new ApiFailure('7000', ['the Airtime channel cannot cover the total of the recipients']);
    case 'created': {
      const submitted = await submitAll(deps, ctx.state.log, outcome.transactions);
      const first = outcome.transactions[0]?.reference ?? '';
      return answerClaimed(input, key, first, answerOf(submitted, outcome.channel, account));
    }
  }
}
