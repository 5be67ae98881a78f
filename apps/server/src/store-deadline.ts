// An API request's deadline for the store: the time it may spend, in all, waiting for the database
// (queueing for a group-committed batch included) before it is answered 9000/503. Only store time counts:
// a slow money network is bounded by the provider timeout instead, and must not read as an outage. The
// sandbox simulator keeps its jobs in the store, so waiting for it counts. The budget follows the request
// through AsyncLocalStorage; outside a request (the worker, the CLI) nothing is bounded here.
//
// A call that runs out of budget is given up, not undone: a batch already sent may still commit. So a
// 9000/503 to a money request means "may have happened", and a retry with its Idempotency-Key tells.

import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';
import type { Ledger } from '@topup/ledger';
import type { Provider } from '@topup/worker';

export class StoreDeadlineExceeded extends Error {
  constructor(readonly deadlineMs: number) {
    super(
      `Expected the store to answer this request within ${deadlineMs} ms in all, received no answer in time.`,
    );
    this.name = 'StoreDeadlineExceeded';
  }
}

/**
 * Store time is counted while at least one call is in flight, whether or not its caller still waits for it
 * (a submission given up at the provider timeout still holds the store), and once when calls overlap.
 */
class StoreBudget {
  private spentMs = 0;
  private inFlight = 0;
  private inFlightSince = 0;
  private readonly exhausted = new AbortController();

  constructor(readonly deadlineMs: number) {}

  /** Aborted once the budget is spent; a request still queued for its batch is withdrawn then. */
  get signal(): AbortSignal {
    return this.exhausted.signal;
  }

  private elapsedMs(): number {
    return this.spentMs + (this.inFlight > 0 ? performance.now() - this.inFlightSince : 0);
  }

  async spend<T>(call: () => Promise<T>): Promise<T> {
    const remainingMs = this.deadlineMs - this.elapsedMs();
    if (remainingMs <= 0 || this.exhausted.signal.aborted) throw new StoreDeadlineExceeded(this.deadlineMs);
    if (this.inFlight === 0) this.inFlightSince = performance.now();
    this.inFlight += 1;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new StoreDeadlineExceeded(this.deadlineMs);
        this.exhausted.abort(error);
        reject(error);
      }, remainingMs);
    });
    try {
      return await Promise.race([call(), expired]);
    } finally {
      clearTimeout(timer);
      this.inFlight -= 1;
      if (this.inFlight === 0) this.spentMs += performance.now() - this.inFlightSince;
    }
  }
}

const budgets = new AsyncLocalStorage<StoreBudget>();

/** Runs `fn` (an API request) with `deadlineMs` of store time to spend. */
export function runWithStoreDeadline<T>(deadlineMs: number, fn: () => Promise<T>): Promise<T> {
  return budgets.run(new StoreBudget(deadlineMs), fn);
}

/**
 * Runs `fn` on a budget of its own, as large as the current request's: for a request that waits for
 * another one (the same Idempotency-Key) by looking at the store again and again, each look is bounded,
 * and the wait as a whole by the idempotency wait.
 */
export function runWithRenewedStoreDeadline<T>(fn: () => Promise<T>): Promise<T> {
  const budget = budgets.getStore();
  return budget === undefined ? fn() : budgets.run(new StoreBudget(budget.deadlineMs), fn);
}

/** Charges `call` to the current request's budget, if there is one. */
function charged<T>(call: () => Promise<T>): Promise<T> {
  const budget = budgets.getStore();
  return budget === undefined ? call() : budget.spend(call);
}

/** The current request's `signal` for a group-committed ledger request, to be withdrawn at the deadline. */
export function storeDeadlineSignal(): { signal?: AbortSignal } {
  const budget = budgets.getStore();
  return budget === undefined ? {} : { signal: budget.signal };
}

/** The ledger with every call charged to the current request's budget. */
export function ledgerWithinStoreDeadline(ledger: Ledger): Ledger {
  return new Proxy(ledger, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function') return value;
      const method = value as (...args: unknown[]) => Promise<unknown>;
      return (...args: unknown[]) => charged(() => method.apply(target, args));
    },
  });
}

/** A provider whose submissions wait on this store (the sandbox simulator): charged like the ledger. */
export function submissionsWithinStoreDeadline(provider: Provider): Provider {
  return {
    name: provider.name,
    submit: (transaction) => charged(() => provider.submit(transaction)),
    readyResults: (limit) => provider.readyResults(limit),
    acknowledge: (resultIds) => provider.acknowledge(resultIds),
  };
}
