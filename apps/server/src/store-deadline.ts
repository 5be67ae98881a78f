// An API request's deadline for the store: the time it may spend, in all, waiting for the database
// (queueing for a group-committed batch included) before it is answered 9000/503. Only store time counts:
// a slow money network is bounded by the provider timeout instead, and must not read as an outage. The
// sandbox simulator keeps its jobs in the store, so waiting for it counts.
//
// Each request carries its budget explicitly (ctx.state.storeBudget, and the ledger and provider handed to
// its handler are wrapped around it). AsyncLocalStorage would carry it implicitly, but on Node 20 it hooks
// every promise of the process, which cost the server a third more CPU per request.
//
// A call that runs out of budget is given up, not undone: a batch already sent may still commit. So a
// 9000/503 to a money request means "may have happened", and a retry with its Idempotency-Key tells.

import { performance } from 'node:perf_hooks';
import type { Ledger, WithdrawalSignal } from '@topup/ledger';
import type { Provider, ProviderRoutes } from '@topup/providers';

export class StoreDeadlineExceeded extends Error {
  constructor(readonly deadlineMs: number) {
    super(
      `Expected the store to answer this request within ${deadlineMs} ms in all, received no answer in time.`,
    );
    this.name = 'StoreDeadlineExceeded';
  }
}

/** How often the budgets with calls in flight are looked at; a deadline fires at most this late. */
const watchEveryMs = 10;

/**
 * The budgets with a call in flight, looked at by one process-wide timer rather than a timer each: at
 * thousands of requests a second, a timer and an AbortController per request cost more than the watch.
 */
const watched = new Set<StoreBudget>();
let watch: NodeJS.Timeout | undefined;

function lookAtWatched(): void {
  const now = performance.now();
  for (const budget of watched) budget.expireIfDue(now);
  if (watched.size === 0) {
    clearInterval(watch);
    watch = undefined;
  }
}

function startWatching(budget: StoreBudget): void {
  watched.add(budget);
  // Unreferenced: a deadline still to come never keeps a process alive that has nothing else to do.
  watch ??= setInterval(lookAtWatched, watchEveryMs).unref();
}

/**
 * One request's store time. It is counted while at least one call is in flight, whether or not its caller
 * still waits for it (a submission given up at the provider timeout still holds the store), and once when
 * calls overlap. While calls are in flight the budget is watched; every call races the same expiry.
 *
 * The budget is its own withdrawal signal: a request still queued for its batch is withdrawn once the
 * budget is spent, as an AbortSignal would have it withdrawn.
 */
export class StoreBudget implements WithdrawalSignal {
  private spentMs = 0;
  private inFlight = 0;
  private inFlightSince = 0;
  private expiresAt = Number.POSITIVE_INFINITY;
  private exceeded: StoreDeadlineExceeded | undefined;
  private expired: Promise<never> | undefined;
  private rejectExpired: ((error: StoreDeadlineExceeded) => void) | undefined;
  private listeners: (() => void)[] = [];

  constructor(readonly deadlineMs: number) {}

  get aborted(): boolean {
    return this.exceeded !== undefined;
  }

  get reason(): unknown {
    return this.exceeded;
  }

  /** The budget as the ledger's withdrawal signal. */
  get signal(): WithdrawalSignal {
    return this;
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (this.exceeded === undefined) this.listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.listeners.indexOf(listener);
    if (index !== -1) this.listeners.splice(index, 1);
  }

  /** A budget of the same size, untouched: for each look of a request that waits on another one. */
  renewed(): StoreBudget {
    return new StoreBudget(this.deadlineMs);
  }

  /** Called by the watch: ends the budget once its calls have been in flight for all of it. */
  expireIfDue(now: number): void {
    if (now < this.expiresAt || this.exceeded !== undefined) return;
    const exceeded = new StoreDeadlineExceeded(this.deadlineMs);
    this.exceeded = exceeded;
    watched.delete(this);
    this.rejectExpired?.(exceeded);
    const listeners = this.listeners;
    this.listeners = [];
    for (const listener of listeners) listener();
  }

  async spend<T>(call: () => Promise<T>): Promise<T> {
    if (this.exceeded !== undefined || this.spentMs >= this.deadlineMs) {
      throw new StoreDeadlineExceeded(this.deadlineMs);
    }
    if (this.inFlight === 0) {
      this.inFlightSince = performance.now();
      this.expiresAt = this.inFlightSince + this.deadlineMs - this.spentMs;
      startWatching(this);
    }
    this.inFlight += 1;
    if (this.expired === undefined) {
      this.expired = new Promise<never>((_, reject) => {
        this.rejectExpired = reject;
      });
      // Nobody may be waiting when the budget runs out; the calls that are see it through their race.
      this.expired.catch(() => undefined);
    }
    try {
      return await Promise.race([call(), this.expired]);
    } finally {
      this.inFlight -= 1;
      if (this.inFlight === 0) {
        this.spentMs += performance.now() - this.inFlightSince;
        this.expiresAt = Number.POSITIVE_INFINITY;
        watched.delete(this);
      }
    }
  }
}

/** The ledger with every call charged to `budget`. */
export function ledgerWithinBudget(ledger: Ledger, budget: StoreBudget): Ledger {
  return new Proxy(ledger, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => budget.spend(() => method.apply(target, args));
    },
  });
}

const storeBacked = new WeakSet<Provider>();

/** Marks a provider whose submissions wait on this store (the sandbox simulator), so they are charged. */
export function withSubmissionsInStore(provider: Provider): Provider {
  storeBacked.add(provider);
  return provider;
}

/** The providers for one request: a store-backed one's submissions charged to `budget`, any other as it is. */
export function providersWithinBudget(
  routes: Pick<ProviderRoutes, 'forNetwork'>,
  budget: StoreBudget,
): Pick<ProviderRoutes, 'forNetwork'> {
  // A request asks for its networks' providers more than once (each network checked, then one submitted
  // to), and in sandbox mode they are all the one simulator: its wrapper is made once.
  let last: Provider | undefined;
  let lastWithinBudget: Provider | undefined;
  return {
    forNetwork: (network) => {
      const provider = routes.forNetwork(network);
      if (provider === undefined) return undefined;
      if (provider !== last) {
        last = provider;
        lastWithinBudget = providerWithinBudget(provider, budget);
      }
      return lastWithinBudget;
    },
  };
}

function providerWithinBudget(provider: Provider, budget: StoreBudget): Provider {
  if (!storeBacked.has(provider)) return provider;
  return {
    name: provider.name,
    idempotentSubmissions: provider.idempotentSubmissions,
    ...(provider.webhooks === undefined ? {} : { webhooks: provider.webhooks }),
    submit: (transaction) => budget.spend(() => provider.submit(transaction)),
    readyResults: (limit) => provider.readyResults(limit),
    acknowledge: (resultIds) => provider.acknowledge(resultIds),
    query: (reference) => provider.query(reference),
  };
}
