// Carrying airtime purchases whose payment and delivery are two providers' work (M-Pesa takes the payment,
// Africa's Talking delivers). Every decision is the ledger's transition table's: this loop only talks to the
// providers and tells the ledger what they said. Once the payment succeeded, the delivery goes to the
// recipient's carrier, keyed by its leg id; a failed delivery is refunded by the payer's provider. No call is
// made unless the ledger first claimed it for this worker (a compare-and-set under the transaction's row
// lock), so of two workers only one calls; a refund is claimed once for good, and a delivery is sent again
// only when its carrier says it never had it. Legs with no result are asked about with the same backoff and
// reconciliation window as a first leg, then left to an operator.

import { legId, type Ledger, type PurchaseUnderWay, type TransactionLeg } from '@topup/ledger';
import type { LegEvent, LegEventOutcome } from '@topup/ledger';
import type { LegOrder, Provider, ProviderRoutes, ProviderStatus } from '@topup/providers';
import type { Logger } from 'pino';
import { answerWithin, late } from '../answer-within.js';
import { submitLegWithin, type SubmitAnswer } from '../submit-within.js';
import type { WorkerMetrics } from '../worker-metrics.js';
import type { RoundResult } from './poll-loop.js';
import { nextQueryOf } from './query-backoff.js';
import { applyProviderResult } from './result-application.js';

export interface PurchaseChainsDependencies {
  readonly ledger: Pick<Ledger, 'purchasesUnderWay' | 'applyLegEvent' | 'complete' | 'cancel'>;
  /** The recipient's carrier delivers; the payer's money network refunds. */
  readonly providers: Pick<ProviderRoutes, 'forNetwork'>;
  readonly logger: Logger;
  readonly metrics: Pick<WorkerMetrics, 'reviews'>;
  readonly batchSize: number;
  readonly providerTimeoutMs: number;
  /** How long a delivery or refund waits for a pushed result before its provider is asked. */
  readonly queryAfterMs: number;
  readonly timeoutMs: number;
  /** How long past the timeout a leg may stay unsettled before it waits for an operator. */
  readonly reconciliationWindowMs: number;
  readonly now: () => Date;
}

type LaterLeg = LegOrder['kind'];

const unsettled = (leg: TransactionLeg | undefined): leg is TransactionLeg =>
  leg !== undefined && leg.state !== 'succeeded' && leg.state !== 'failed';

function carrying(provider: Provider | undefined, kind: LaterLeg): Provider | undefined {
  return provider?.submitLeg !== undefined && provider.laterLegs?.includes(kind) === true
    ? provider
    : undefined;
}

function orderOf(purchase: PurchaseUnderWay, kind: LaterLeg): LegOrder {
  const { transaction, legs } = purchase;
  const payment = legs.find((leg) => leg.kind === 'payment');
  return {
    id: legId(transaction.reference, kind),
    kind,
    transaction,
    paymentReference: payment?.providerReference ?? '',
  };
}

function providerOf(deps: PurchaseChainsDependencies, purchase: PurchaseUnderWay, kind: LaterLeg) {
  const { transaction } = purchase;
  const network = kind === 'delivery' ? transaction.network : (transaction.payment?.network ?? '');
  return { network, provider: deps.providers.forNetwork(network) };
}

const scheduleOf = (deps: PurchaseChainsDependencies, purchase: PurchaseUnderWay) =>
  nextQueryOf(deps, purchase.transaction.createdAt, deps.now());

/** Tells the ledger what happened to leg `kind` of `purchase`; returns the step taken, as the table named it. */
async function tell(
  deps: PurchaseChainsDependencies,
  purchase: PurchaseUnderWay,
  kind: LaterLeg,
  event: LegEvent,
): Promise<string> {
  return describe(kind, event, await told(deps, purchase, kind, event));
}

function describe(kind: LaterLeg, event: LegEvent, outcome: LegEventOutcome | undefined): string {
  return `${kind} ${event.kind}: ${outcome?.action ?? 'no such transaction'}`;
}

async function told(
  deps: PurchaseChainsDependencies,
  purchase: PurchaseUnderWay,
  kind: LaterLeg,
  event: LegEvent,
): Promise<LegEventOutcome | undefined> {
  const outcome = await deps.ledger.applyLegEvent(purchase.transaction.reference, kind, event);
  if (outcome?.review !== undefined) {
    deps.metrics.reviews.inc({ reason: outcome.review });
    deps.logger.error(
      { reference: purchase.transaction.reference, leg: kind, why: outcome.why },
      'a purchase’s leg waits for an operator (topup legs unresolved)',
    );
  }
  return outcome;
}

/** The event a submission's answer is, for the ledger. */
function answerEvent(
  deps: PurchaseChainsDependencies,
  purchase: PurchaseUnderWay,
  provider: string,
  answer: SubmitAnswer,
): LegEvent {
  const { nextQueryAt } = scheduleOf(deps, purchase);
  switch (answer.kind) {
    case 'accepted':
      return { kind: 'accepted', provider, nextQueryAt };
    case 'refused':
      return { kind: 'refused', provider, providerCode: answer.providerCode, reason: answer.reason };
    case 'unavailable':
      if (answer.taken === false) {
        return { kind: 'never taken', provider, nextQueryAt };
      }
      return {
        kind: 'open',
        state: 'unknown',
        provider,
        nextQueryAt,
        review: false,
        asked: false,
        said: answer.detail ?? answer.reason,
      };
    case 'unknown':
      return {
        kind: 'open',
        state: 'unknown',
        provider,
        nextQueryAt,
        review: false,
        asked: false,
        said: answer.detail ?? answer.reason,
      };
  }
}

/** Claims the next call of leg `kind` for this worker; false when another worker has it or the chain moved on. */
async function claimed(
  deps: PurchaseChainsDependencies,
  purchase: PurchaseUnderWay,
  kind: LaterLeg,
  provider: string,
): Promise<boolean> {
  const seenCalls = purchase.legs.find((leg) => leg.kind === kind)?.calls ?? 0;
  const outcome = await deps.ledger.applyLegEvent(purchase.transaction.reference, kind, {
    kind: 'call',
    provider,
    seenCalls,
    // Asked about then if this worker dies before it tells the ledger what the provider said.
    nextQueryAt: scheduleOf(deps, purchase).nextQueryAt,
  });
  return outcome?.action === 'claim';
}

/**
 * A carrier that takes whole purchases (the simulator, when PROVIDERS routes the carrier to the payer's
 * provider) is asked about the purchase itself: its result settles it.
 */
async function askWhole(
  deps: PurchaseChainsDependencies,
  purchase: PurchaseUnderWay,
  provider: Provider,
): Promise<string> {
  const { reference } = purchase.transaction;
  const status: ProviderStatus | typeof late = await answerWithin(
    provider.query(reference),
    deps.providerTimeoutMs,
  ).catch(() => late);
  if (status !== late && status.kind === 'result') {
    const applied = await applyProviderResult(deps, status.result, provider.name, 'query');
    await provider.acknowledge([status.result.id]);
    return `purchase result: ${applied.action}`;
  }
  const { nextQueryAt, review } = scheduleOf(deps, purchase);
  const said = status === late ? 'could not be asked' : status.kind;
  return tell(deps, purchase, 'delivery', {
    kind: 'open',
    state: 'unknown',
    provider: provider.name,
    nextQueryAt,
    review,
    asked: true,
    said,
  });
}

async function deliver(deps: PurchaseChainsDependencies, purchase: PurchaseUnderWay): Promise<string> {
  const { logger } = deps;
  const { reference } = purchase.transaction;
  const { network, provider: routed } = providerOf(deps, purchase, 'delivery');
  const provider = carrying(routed, 'delivery');
  if (provider === undefined) {
    const payer = providerOf(deps, purchase, 'refund').provider;
    if (routed !== undefined && routed === payer) return askWhole(deps, purchase, routed);
    // PROVIDERS changed since the payment, or names a carrier that cannot deliver: nothing was sent to any
    // carrier, so the payer is refunded.
    logger.error({ reference, network }, 'no provider delivers airtime on the recipient’s network');
    return tell(deps, purchase, 'delivery', {
      kind: 'refused',
      provider: routed?.name ?? '',
      providerCode: '',
      reason: 'no provider delivers airtime on the recipient’s network',
    });
  }
  if (!(await claimed(deps, purchase, 'delivery', provider.name))) return 'delivery taken by another worker';
  const answer = await submitLegWithin(provider, orderOf(purchase, 'delivery'), deps.providerTimeoutMs);
  if (answer.kind !== 'accepted') {
    logger.warn(
      {
        reference,
        provider: provider.name,
        answer: answer.kind,
        providerError: 'detail' in answer ? answer.detail : undefined,
      },
      'a delivery was not plainly accepted; the ledger decides what follows',
    );
  }
  return tell(deps, purchase, 'delivery', answerEvent(deps, purchase, provider.name, answer));
}

async function refund(deps: PurchaseChainsDependencies, purchase: PurchaseUnderWay): Promise<string> {
  const { logger } = deps;
  const { reference } = purchase.transaction;
  const { network, provider: routed } = providerOf(deps, purchase, 'refund');
  const name = routed?.name ?? '';
  if (!(await claimed(deps, purchase, 'refund', name))) return 'refund taken by another worker';
  const provider = carrying(routed, 'refund');
  if (provider === undefined) {
    logger.error({ reference, network }, 'no provider can refund the payer of an undelivered purchase');
    return tell(deps, purchase, 'refund', {
      kind: 'refused',
      provider: name,
      providerCode: '',
      reason: 'no provider refunds payments on the payer’s network',
    });
  }
  const answer = await submitLegWithin(provider, orderOf(purchase, 'refund'), deps.providerTimeoutMs);
  // A refund is never sent again: one the provider did not take is refused for good (an operator decides).
  const event: LegEvent =
    answer.kind === 'unavailable' && answer.taken === false
      ? { kind: 'refused', provider: name, providerCode: '', reason: answer.reason }
      : answerEvent(deps, purchase, name, answer);
  return tell(deps, purchase, 'refund', event);
}

async function ask(
  deps: PurchaseChainsDependencies,
  purchase: PurchaseUnderWay,
  leg: TransactionLeg,
): Promise<string> {
  const { logger } = deps;
  const kind = leg.kind === 'refund' ? 'refund' : 'delivery';
  const { provider } = providerOf(deps, purchase, kind);
  const status: ProviderStatus | typeof late =
    provider?.queryLeg === undefined
      ? late
      : await answerWithin(provider.queryLeg(leg.id), deps.providerTimeoutMs).catch((error: unknown) => {
          logger.warn({ leg: leg.id, err: error }, 'the provider could not be asked about a leg');
          return late;
        });
  if (status !== late && status.kind === 'result') {
    const applied = await applyProviderResult(deps, status.result, provider?.name ?? leg.provider, 'query');
    await provider?.acknowledge([status.result.id]);
    return `${kind} result: ${applied.action}`;
  }
  const { nextQueryAt, review } = scheduleOf(deps, purchase);
  const name = provider?.name ?? leg.provider;
  if (status !== late && status.kind === 'not_found' && kind === 'delivery') {
    // The carrier says it never had it (no call was ever made with it; one that may have been made, or
    // whose answer was a duplicate, is unknown instead): sent again, under a new claim.
    const event: LegEvent = { kind: 'never taken', provider: name, nextQueryAt };
    const noted = await told(deps, purchase, 'delivery', event);
    return noted?.action === 'note open' ? deliver(deps, purchase) : describe('delivery', event, noted);
  }
  const said =
    status === late
      ? 'could not be asked'
      : status.kind === 'pending'
        ? 'still working on it'
        : 'does not know it';
  return tell(deps, purchase, kind, {
    kind: 'open',
    state: status !== late && status.kind === 'pending' ? 'pending' : 'unknown',
    provider: name,
    nextQueryAt,
    review,
    asked: true,
    said,
  });
}

/** The step a purchase under way takes now. */
function advance(deps: PurchaseChainsDependencies, purchase: PurchaseUnderWay): Promise<string> {
  const delivery = purchase.legs.find((leg) => leg.kind === 'delivery');
  const refunded = purchase.legs.find((leg) => leg.kind === 'refund');
  // A cancelled purchase here was found paid by an operator: it is refunded, never delivered.
  if (purchase.transaction.state === 'cancelled')
    return refunded === undefined ? refund(deps, purchase) : ask(deps, purchase, refunded);
  if (delivery === undefined) return deliver(deps, purchase);
  if (refunded === undefined && delivery.state === 'failed') return refund(deps, purchase);
  const due = unsettled(refunded) ? refunded : delivery;
  return ask(deps, purchase, due);
}

/** One round: takes the next step of each purchase under way whose step is due. */
export async function advancePurchaseChains(deps: PurchaseChainsDependencies): Promise<RoundResult> {
  const purchases = await deps.ledger.purchasesUnderWay(deps.batchSize);
  const settled = await Promise.allSettled(purchases.map((purchase) => advance(deps, purchase)));
  let failed = 0;
  settled.forEach((answer, index) => {
    const reference = purchases[index]?.transaction.reference;
    if (answer.status === 'rejected') {
      failed += 1;
      deps.logger.error({ reference, err: answer.reason }, 'a purchase’s next step failed; will retry');
    } else {
      deps.logger.debug({ reference, step: answer.value }, 'purchase moved on');
    }
  });
  return { more: purchases.length === deps.batchSize && failed === 0 };
}
