// Test helper: the real ledger as the worker loops see it, narrowed to one transaction. Lists of work
// (purchases under way, expired and unsubmitted transactions) keep only that transaction, so many tests can
// share one store while each drives its own transaction through the real loops; every other call goes to
// the ledger unchanged. What the ledger answered is told to `heard` (a model's checks read it): each listing
// that held the transaction, with its legs, each leg event and resolution, and a loop touching another
// transaction. `inTurns` makes one worker's calls take turns with
// another's (lockstep.ts).

import type {
  Ledger,
  LegEvent,
  LegEventOutcome,
  LegKind,
  ResolveOutcome,
  TransactionLeg,
  TransactionRecord,
} from '@topup/ledger';
import type { Provider, ProviderRoutes } from '@topup/providers';
import type { Lockstep, Turn } from './lockstep.js';

/** What the loops use of the ledger. */
export type LoopLedger = Pick<
  Ledger,
  | 'purchasesUnderWay'
  | 'listExpired'
  | 'listUnsubmitted'
  | 'applyLegEvent'
  | 'complete'
  | 'cancel'
  | 'noteUnsettledLeg'
  | 'markSubmitted'
  | 'legs'
>;

/** What the ledger answered a loop. */
export type HeardAnswer =
  | {
      readonly kind: 'leg event';
      readonly leg: LegKind | 'first';
      readonly event: LegEvent;
      readonly outcome: LegEventOutcome | undefined;
    }
  | {
      readonly kind: 'resolution';
      readonly asked: 'complete' | 'cancel';
      readonly timedOut: boolean;
      readonly outcome: ResolveOutcome;
    }
  | {
      readonly kind: 'listed';
      readonly listing: 'purchases under way' | 'expired' | 'unsubmitted';
      readonly transaction: TransactionRecord;
      readonly legs: readonly TransactionLeg[];
    }
  | { readonly kind: 'another transaction'; readonly reference: string };

/** `ledger` narrowed to transaction `reference`; see the header. */
export function oneTransactionLedger(
  ledger: Ledger,
  reference: string,
  heard: (answer: HeardAnswer) => void,
): LoopLedger {
  const ours = (other: string) => {
    if (other !== reference) heard({ kind: 'another transaction', reference: other });
  };
  const listedOf = async (
    listing: 'expired' | 'unsubmitted',
    transactions: readonly TransactionRecord[],
  ): Promise<TransactionRecord[]> => {
    const listed = transactions.filter((transaction) => transaction.reference === reference);
    for (const transaction of listed) {
      heard({ kind: 'listed', listing, transaction, legs: await ledger.legs(reference) });
    }
    return listed;
  };
  return {
    async purchasesUnderWay(limit) {
      const listed = (await ledger.purchasesUnderWay(limit)).filter(
        (purchase) => purchase.transaction.reference === reference,
      );
      for (const { transaction, legs } of listed) {
        heard({ kind: 'listed', listing: 'purchases under way', transaction, legs });
      }
      return listed;
    },
    listExpired: async (olderThan, limit) => listedOf('expired', await ledger.listExpired(olderThan, limit)),
    listUnsubmitted: async (olderThan, limit) =>
      listedOf('unsubmitted', await ledger.listUnsubmitted(olderThan, limit)),
    async applyLegEvent(other, leg, event) {
      ours(other);
      const outcome = await ledger.applyLegEvent(other, leg, event);
      heard({ kind: 'leg event', leg, event, outcome });
      return outcome;
    },
    async complete(other, result) {
      ours(other);
      const outcome = await ledger.complete(other, result);
      heard({ kind: 'resolution', asked: 'complete', timedOut: false, outcome });
      return outcome;
    },
    async cancel(other, result) {
      ours(other);
      const outcome = await ledger.cancel(other, result);
      heard({ kind: 'resolution', asked: 'cancel', timedOut: result.timedOut === true, outcome });
      return outcome;
    },
    noteUnsettledLeg(other, leg) {
      ours(other);
      return ledger.noteUnsettledLeg(other, leg);
    },
    markSubmitted(other) {
      ours(other);
      return ledger.markSubmitted(other);
    },
    legs: (other) => ledger.legs(other),
  };
}

/** `target`, whose methods all answer promises, with every method run on `worker`'s turn. */
function onTurn<T extends object>(target: T, turns: Lockstep, worker: Turn): T {
  const wrapped: Record<string, unknown> = { ...(target as Record<string, unknown>) };
  for (const [name, value] of Object.entries(target)) {
    if (typeof value === 'function') {
      wrapped[name] = (...args: unknown[]) =>
        turns.step(worker, () => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
    }
  }
  return wrapped as T;
}

/** The ledger and providers of one of two workers taking turns. */
export function inTurns(
  ledger: LoopLedger,
  providers: Pick<ProviderRoutes, 'forNetwork'>,
  turns: Lockstep,
  worker: Turn,
): { ledger: LoopLedger; providers: Pick<ProviderRoutes, 'forNetwork'> } {
  const wrapped = new Map<Provider, Provider>();
  return {
    ledger: onTurn(ledger, turns, worker),
    providers: {
      forNetwork(network) {
        const provider = providers.forNetwork(network);
        if (provider === undefined) return undefined;
        const known = wrapped.get(provider) ?? onTurn(provider, turns, worker);
        wrapped.set(provider, known);
        return known;
      },
    },
  };
}
