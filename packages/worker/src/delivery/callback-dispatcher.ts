// Callback delivery for one worker: claims due deliveries from the outbox (leased, `FOR UPDATE SKIP
// LOCKED` in the ledger), sends each as one signed attempt, and records what happened. Concurrency is
// bounded per worker (deliveries in hand) and per endpoint (requests open to it: an endpoint's slot is
// freed as soon as its answer is in, while the attempt is still being recorded). Each endpoint's secrets
// are read once per claim round. A claimed delivery that waited so long for its endpoint that its lease
// could lapse before the attempt ends is not sent, and neither is one still waiting when the worker stops:
// its lease is released at once, so any worker may claim it again without waiting for the lease to run
// out, and no receiver gets the same delivery twice at once.

import { performance } from 'node:perf_hooks';
import type { ClaimedDelivery, Ledger } from '@topup/ledger';
import type { Logger } from 'pino';
import type { HostResolver } from '../callback-url-policy.js';
import { KeyedConcurrencyLimiter } from '../concurrency-limiter.js';
import type { RoundResult } from '../loops/poll-loop.js';
import type { WorkerMetrics } from '../worker-metrics.js';
import type { ResolvedWorkerSettings } from '../worker-settings.js';
import { attemptOutcome } from './attempt-outcome.js';
import { attemptRecord } from './attempt-record.js';
import type { AttemptOutcome } from './attempt-outcome.js';
import { prepareCallbackAttempt } from './callback-attempt.js';
import type { SentAttempt } from './callback-attempt.js';
import { CallbackHttpClient } from './post-callback.js';
import type { CallbackPostResult } from './post-callback.js';

export interface CallbackDispatcherOptions {
  readonly ledger: Pick<
    Ledger,
    'claimDeliveries' | 'recordDeliveryAttempt' | 'releaseDeliveries' | 'endpointSecrets'
  >;
  readonly logger: Logger;
  readonly settings: ResolvedWorkerSettings;
  readonly metrics: WorkerMetrics;
  /**
   * Asks for a claim round soon: when capacity frees up after a round that filled it, and when a retry
   * falls due before the next poll.
   */
  readonly wake: () => void;
  readonly resolve?: HostResolver;
  readonly random?: () => number;
  /** Starts a timer; `setTimeout` by default (tests use one that fires early, as Node's may). */
  readonly setTimer?: (callback: () => void, delayMs: number) => NodeJS.Timeout;
}

/** An endpoint's current secrets, read at most once per claim round. */
type SecretsOf = (endpointId: string) => Promise<string[]>;

function resultClass(result: CallbackPostResult): string {
  if (result.kind === 'timeout') return 'timeout';
  if (result.kind === 'failed') return 'error';
  return `${Math.floor(result.status / 100)}xx`;
}

export class CallbackDispatcher {
  readonly #options: CallbackDispatcherOptions;
  readonly #client: CallbackHttpClient;
  readonly #endpoints: KeyedConcurrencyLimiter;
  readonly #inFlight = new Set<Promise<void>>();
  readonly #retryTimers = new Set<NodeJS.Timeout>();
  #saturated = false;
  #stopping = false;
  /** The account the last claim ended at; the next starts after it, so claims go round the accounts. */
  #afterAccountId: string | undefined;

  constructor(options: CallbackDispatcherOptions) {
    this.#options = options;
    this.#client = new CallbackHttpClient({
      maxSocketsPerHost: options.settings.perEndpointConcurrency,
      trustedCertificates: options.settings.callbackTrustedCertificates,
    });
    this.#endpoints = new KeyedConcurrencyLimiter(options.settings.perEndpointConcurrency);
  }

  /** Deliveries claimed and not yet finished. */
  get inHand(): number {
    return this.#inFlight.size;
  }

  /** Claims as many due deliveries as there is room for and starts them; does not wait for them. */
  async round(): Promise<RoundResult> {
    const { ledger, settings } = this.#options;
    const room = settings.deliveryConcurrency - this.#inFlight.size;
    if (this.#stopping || room <= 0) return { more: false };
    const claimedAt = performance.now();
    const claimed = await ledger.claimDeliveries({
      workerId: settings.workerId,
      limit: room,
      leaseMs: settings.deliveryLeaseMs,
      ...(this.#afterAccountId === undefined ? {} : { afterAccountId: this.#afterAccountId }),
    });
    this.#afterAccountId = claimed.at(-1)?.accountId;
    // The database set the lease after this moment, so measuring from here errs on the safe side.
    const sendBy = claimedAt + settings.deliveryStartWindowMs;
    const secrets = new Map<string, Promise<string[]>>();
    const secretsOf = (endpointId: string) => {
      let found = secrets.get(endpointId);
      if (found === undefined) {
        found = ledger.endpointSecrets(endpointId);
        // Each delivery awaits it and handles its failure; this copy only must not go unhandled.
        found.catch(() => undefined);
        secrets.set(endpointId, found);
      }
      return found;
    };
    for (const delivery of claimed) this.#track(this.#deliver(delivery, sendBy, secretsOf));
    this.#saturated = claimed.length === room;
    return { more: false };
  }

  /** Stops claiming, releases deliveries still waiting for their endpoint, and finishes those in flight. */
  async stop(): Promise<void> {
    this.#stopping = true;
    for (const timer of this.#retryTimers) clearTimeout(timer);
    this.#retryTimers.clear();
    await Promise.allSettled([...this.#inFlight]);
    this.#client.close();
  }

  #track(work: Promise<void>): void {
    this.#inFlight.add(work);
    void work.finally(() => {
      this.#inFlight.delete(work);
      if (this.#saturated && this.#inFlight.size <= this.#options.settings.deliveryConcurrency / 2) {
        this.#saturated = false;
        this.#options.wake();
      }
    });
  }

  #wakeAt(at: Date): void {
    const delayMs = at.getTime() - Date.now();
    if (this.#stopping || delayMs >= this.#options.settings.pollIntervalMs) return;
    const setTimer = this.#options.setTimer ?? setTimeout;
    const timer = setTimer(
      () => {
        this.#retryTimers.delete(timer);
        // Node's timers may fire up to a millisecond before Date.now() reaches `at`, and a claim then would
        // not find the retry due yet; with no other wake-up it would wait for the next poll.
        if (Date.now() < at.getTime()) this.#wakeAt(at);
        else this.#options.wake();
      },
      Math.max(0, delayMs),
    );
    timer.unref();
    this.#retryTimers.add(timer);
  }

  async #deliver(delivery: ClaimedDelivery, sendBy: number, secretsOf: SecretsOf): Promise<void> {
    const { logger } = this.#options;
    try {
      const result = await this.#endpoints.run(delivery.endpointId, () =>
        this.#send(delivery, sendBy, secretsOf),
      );
      if (result === 'lapsed') await this.#release(delivery);
      else await this.#record(delivery, result.result, result.receiverIsPublic);
    } catch (error) {
      // The attempt may have been sent; its lease lapses and it is sent again: at least once.
      logger.error({ err: error, deliveryId: delivery.id }, 'recording a callback attempt failed');
    }
  }

  /** Gives a claimed delivery that was not sent back to the queue, for any worker to claim now. */
  async #release(delivery: ClaimedDelivery): Promise<void> {
    const { ledger, logger, settings } = this.#options;
    await ledger.releaseDeliveries(settings.workerId, [delivery.id]);
    logger.debug(
      { deliveryId: delivery.id, stopping: this.#stopping },
      'callback not sent: it could no longer start within its lease, or the worker is stopping; released',
    );
  }

  /** Records an attempt: in full in the log, and in the delivery as `attemptRecord` lets callers read it. */
  async #record(
    delivery: ClaimedDelivery,
    result: CallbackPostResult,
    receiverIsPublic: boolean,
  ): Promise<void> {
    const { ledger, settings, metrics } = this.#options;
    const now = new Date();
    const attempt = delivery.attempts + 1;
    const decision: AttemptOutcome = attemptOutcome(result, {
      attemptsMade: delivery.attemptsInSchedule + 1,
      schedule: settings.retryScheduleSeconds,
      slowDownFloorSeconds: settings.slowDownFloorSeconds,
      now,
      ...(this.#options.random === undefined ? {} : { random: this.#options.random }),
    });
    await ledger.recordDeliveryAttempt(delivery.id, {
      workerId: settings.workerId,
      durationMs: result.durationMs,
      ...attemptRecord(result, receiverIsPublic),
      outcome: decision.outcome,
      ...(decision.outcome === 'retry' ? { nextAttemptAt: decision.nextAttemptAt } : {}),
    });
    if (decision.outcome === 'retry') this.#wakeAt(decision.nextAttemptAt);
    metrics.callbackDeliveries.inc({ outcome: decision.outcome });
    metrics.callbackAttemptDuration.observe({ result: resultClass(result) }, result.durationMs / 1000);
    this.#logAttempt(delivery, attempt, result, decision);
  }

  #logAttempt(
    delivery: ClaimedDelivery,
    attempt: number,
    result: CallbackPostResult,
    decision: AttemptOutcome,
  ): void {
    const { logger } = this.#options;
    const context = {
      deliveryId: delivery.id,
      reference: delivery.reference,
      endpointId: delivery.endpointId,
      attempt,
      outcome: decision.outcome,
      ...(result.kind === 'answered' ? { httpStatus: result.status } : { error: result.error }),
    };
    if (decision.outcome === 'delivered') logger.info(context, 'callback delivered');
    else if (decision.outcome === 'retry')
      logger.info(
        { ...context, nextAttemptAt: decision.nextAttemptAt },
        'callback attempt failed; will retry',
      );
    else
      logger.warn(
        context,
        decision.outcome === 'failed'
          ? 'callback failed after its last attempt'
          : 'callback endpoint is gone; disabled',
      );
  }

  /** Sends one attempt; `lapsed` when it could no longer start within its lease (or the worker is stopping). */
  async #send(
    delivery: ClaimedDelivery,
    sendBy: number,
    secretsOf: SecretsOf,
  ): Promise<SentAttempt | 'lapsed'> {
    const { settings, logger } = this.#options;
    const prepared = await prepareCallbackAttempt(
      { url: delivery.url, format: delivery.format, payload: delivery.payload, id: delivery.id },
      {
        policy: {
          mode: settings.mode,
          allowPrivateNetworks: settings.allowPrivateCallbackNetworks,
          allowLoopback: settings.allowLoopbackCallbacks,
          ...(this.#options.resolve === undefined ? {} : { resolve: this.#options.resolve }),
        },
        // A store failure here is not the receiver's: it escapes, is not counted as an attempt, and the lease lapses.
        secrets: () => secretsOf(delivery.endpointId),
        client: this.#client,
        timeoutMs: settings.deliveryTimeoutMs,
      },
    );
    if (!prepared.ready) {
      if (prepared.attempt.refusal !== undefined) {
        logger.warn(
          { deliveryId: delivery.id, endpointId: delivery.endpointId, problem: prepared.attempt.refusal },
          'callback URL refused at delivery',
        );
      }
      return prepared.attempt;
    }
    if (this.#stopping || performance.now() > sendBy) return 'lapsed';
    return prepared.send();
  }
}
