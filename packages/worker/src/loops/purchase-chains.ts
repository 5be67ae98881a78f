// Carrying airtime purchases whose payment and delivery are two providers' work (M-Pesa takes the payment,
// Africa's Talking delivers): once the payer's provider says the payment succeeded, the delivery goes to the
// recipient's carrier, keyed by its leg id; a failed delivery is refunded by the payer's provider. Each step
// is noted on its leg before the next is taken, so a worker that dies anywhere resumes from the notes. A
// delivery can be sent again (the carrier deduplicates by the leg id); a refund never is: its leg is claimed
// before the call, and a refund whose fate is unknown is asked about, then left to an operator. Legs with no
// result are asked about with the same backoff and reconciliation window as a first leg.

import { legId, type Ledger, type PurchaseUnderWay, type TransactionLeg } from '@topup/ledger';
import type { LegOrder, Provider, ProviderRoutes, ProviderStatus } from '@topup/providers';
import type { Logger } from 'pino';
import { answerWithin, late } from '../answer-within.js';
import { submitLegWithin } from '../submit-within.js';
import { applyProviderResult } from './provider-results.js';
import type { RoundResult } from './poll-loop.js';
import { nextQueryOf } from './query-backoff.js';

export interface PurchaseChainsDependencies {
  readonly ledger: Pick<Ledger, 'purchasesUnderWay' | 'noteLeg' | 'complete' | 'cancel'>;
  /** The recipient's carrier delivers; the payer's money network refunds. */
  readonly providers: Pick<ProviderRoutes, 'forNetwork'>;
  readonly logger: Logger;
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

function carrying(provider: Provider | undefined, kind: LaterLeg): boolean {
  return provider?.submitLeg !== undefined && provider.laterLegs?.includes(kind) === true;
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

const nextQueryAt = (deps: PurchaseChainsDependencies, purchase: PurchaseUnderWay): Date =>
  scheduleOf(deps, purchase).nextQueryAt;

async function deliver(deps: PurchaseChainsDependencies, purchase: PurchaseUnderWay): Promise<string> {
  const { ledger, logger } = deps;
  const { reference } = purchase.transaction;
  const { network, provider } = providerOf(deps, purchase, 'delivery');
  if (provider === undefined || !carrying(provider, 'delivery')) {
    // PROVIDERS changed since the payment, or names a carrier that cannot deliver: the payer is refunded.
    logger.error({ reference, network }, 'no provider delivers airtime on the recipient’s network');
    await ledger.noteLeg(reference, { kind: 'delivery', state: 'failed', provider: provider?.name ?? '' });
    return 'delivery failed: no carrier';
  }
  const answer = await submitLegWithin(provider, orderOf(purchase, 'delivery'), deps.providerTimeoutMs);
  const step = { kind: 'delivery', provider: provider.name } as const;
  switch (answer.kind) {
    case 'accepted':
      await ledger.noteLeg(reference, {
        ...step,
        state: 'submitted',
        nextQueryAt: nextQueryAt(deps, purchase),
      });
      return 'delivery submitted';
    case 'refused':
      await ledger.noteLeg(reference, { ...step, state: 'failed', providerReference: answer.providerCode });
      logger.warn(
        { reference, reason: answer.reason },
        'the carrier refused the delivery; refunding the payer',
      );
      return 'delivery refused';
    case 'unavailable':
    case 'unknown':
      // Asked about before anything else is done: sent again only if the carrier never had it.
      await ledger.noteLeg(reference, {
        ...step,
        state: 'unknown',
        nextQueryAt: nextQueryAt(deps, purchase),
      });
      logger.warn(
        { reference, provider: provider.name, providerError: answer.detail ?? answer.reason },
        'a delivery’s submission had no clear answer; asking the carrier later',
      );
      return 'delivery unknown';
  }
}

async function refund(deps: PurchaseChainsDependencies, purchase: PurchaseUnderWay): Promise<string> {
  const { ledger, logger } = deps;
  const { reference } = purchase.transaction;
  const { network, provider } = providerOf(deps, purchase, 'refund');
  const step = { kind: 'refund', provider: provider?.name ?? '' } as const;
  if (provider === undefined || !carrying(provider, 'refund')) {
    await ledger.noteLeg(reference, { ...step, state: 'unknown', review: true, onlyIfAbsent: true });
    logger.error(
      { reference, network },
      'no provider can refund the payer of an undelivered purchase; its refund waits for an operator',
    );
    return 'refund left for review';
  }
  const claimed = await ledger.noteLeg(reference, {
    ...step,
    state: 'unknown',
    nextQueryAt: nextQueryAt(deps, purchase),
    onlyIfAbsent: true,
  });
  if (!claimed) return 'refund taken by another worker';
  const answer = await submitLegWithin(provider, orderOf(purchase, 'refund'), deps.providerTimeoutMs);
  if (answer.kind === 'accepted') {
    await ledger.noteLeg(reference, {
      ...step,
      state: 'submitted',
      nextQueryAt: nextQueryAt(deps, purchase),
    });
    return 'refund submitted';
  }
  if (answer.kind === 'refused' || (answer.kind === 'unavailable' && answer.taken === false)) {
    // Nothing was refunded, and a refund is never retried without a person deciding: an operator does.
    await ledger.noteLeg(reference, {
      ...step,
      state: 'failed',
      providerReference: answer.kind === 'refused' ? answer.providerCode : '',
      review: true,
    });
    logger.error(
      { reference, reason: answer.reason },
      'the payer’s provider did not take the refund; it waits for an operator (topup legs unresolved)',
    );
    return 'refund refused';
  }
  logger.warn(
    { reference, providerError: answer.detail ?? answer.reason },
    'a refund’s submission had no clear answer; asking its provider later',
  );
  return 'refund unknown';
}

async function ask(
  deps: PurchaseChainsDependencies,
  purchase: PurchaseUnderWay,
  leg: TransactionLeg,
): Promise<string> {
  const { ledger, logger } = deps;
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
    const applied = await applyProviderResult(ledger, status.result, provider?.name ?? leg.provider);
    await provider?.acknowledge([status.result.id]);
    return `${kind} result: ${applied.kind}`;
  }
  if (status !== late && status.kind === 'not_found' && kind === 'delivery') {
    // The carrier never had it: sent again when sending is safe (keyed by the leg id), else refunded.
    if (provider?.idempotentSubmissions === true) return deliver(deps, purchase);
    await ledger.noteLeg(purchase.transaction.reference, { kind, state: 'failed', provider: leg.provider });
    return 'delivery never taken';
  }
  const { nextQueryAt: askAgainAt, review } = scheduleOf(deps, purchase);
  await ledger.noteLeg(purchase.transaction.reference, {
    kind,
    state: status !== late && status.kind === 'pending' ? 'pending' : 'unknown',
    provider: leg.provider,
    nextQueryAt: askAgainAt,
    review,
    asked: true,
  });
  if (review) {
    logger.error(
      { leg: leg.id },
      'leg unsettled at the end of the reconciliation window: it waits for an operator (topup legs unresolved)',
    );
  }
  return `${kind} unsettled`;
}

/** The step a purchase under way takes now. */
function advance(deps: PurchaseChainsDependencies, purchase: PurchaseUnderWay): Promise<string> {
  const delivery = purchase.legs.find((leg) => leg.kind === 'delivery');
  const refunded = purchase.legs.find((leg) => leg.kind === 'refund');
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
