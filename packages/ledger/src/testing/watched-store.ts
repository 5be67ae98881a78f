// Test helper: a store that shows every statement sent inside its transactions to a watcher, before and
// after it runs. A watcher that throws fails that statement, which is how tests inject a crash at any
// point of a flush; a watcher that records is how they count what a flush writes.

import type { Queryable, Store } from '../store.js';

/** One statement inside a transaction of a watched store. */
export interface WatchedStatement {
  /** Which transaction of this store, from 1 in the order they began. */
  readonly transaction: number;
  /** Which statement of that transaction, from 1. */
  readonly index: number;
  readonly sql: string;
  readonly params: readonly unknown[];
}

export interface StatementWatcher {
  /** Before the statement is sent; a throw fails it unsent. */
  before?(statement: WatchedStatement): void;
  /** After it ran (its writes are part of the open transaction); a throw fails it anyway. */
  after?(statement: WatchedStatement): void;
}

/** `store`, with every statement of its transactions shown to `watcher`. Closing it leaves `store` open. */
export function watchedStore(store: Store, watcher: StatementWatcher): Store {
  let transactions = 0;
  const watch = (tx: Queryable, transaction: number): Queryable => {
    let index = 0;
    return {
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- see Queryable
      async query<R>(sql: string, params: readonly unknown[] = []) {
        index += 1;
        const statement = { transaction, index, sql, params };
        watcher.before?.(statement);
        const result = await tx.query<R>(sql, params);
        watcher.after?.(statement);
        return result;
      },
    };
  };
  return {
    kind: store.kind,
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- see Queryable
    query: <R>(sql: string, params?: readonly unknown[]) => store.query<R>(sql, params),
    transaction: (fn) => {
      transactions += 1;
      const transaction = transactions;
      return store.transaction((tx) => fn(watch(tx, transaction)));
    },
    listen: (channel, onNotify) => store.listen(channel, onNotify),
    notify: (channel, payload) => store.notify(channel, payload),
    close: () => Promise.resolve(),
  };
}
