// The PostgreSQL store: a `pg` pool for queries and transactions, and one dedicated connection that
// holds every LISTEN of this process. A schema, when given, is set as the search_path of every
// connection, so the same unqualified SQL runs in any schema. A database that goes away is a failed
// query, never a hang or a crash: connecting and every query are bounded in time, a dropped connection is
// discarded, and the listener reconnects by itself when the database is back.

import pg from 'pg';
import type { Queryable, Store } from './store.js';
import { errorCode } from './error-code.js';

export interface PostgresStoreOptions {
  databaseUrl: string;
  poolSize?: number;
  schema?: string;
  /** Longest wait for a connection, new or from the pool. Default 5000. */
  connectionTimeoutMs?: number;
  /** Longest run of one statement; the server cancels it, and the client gives up soon after. Default 15000. */
  queryTimeoutMs?: number;
}

/**
 * Bounds of a store that cannot be reached, so that callers get an error instead of waiting forever. The
 * query timeout leaves room for the slowest legitimate statement (a whole-ledger verify, a migration that
 * waits for another process's).
 */
const defaultConnectionTimeoutMs = 5_000;
const defaultQueryTimeoutMs = 15_000;
/** A connection left idle inside a transaction (its process hung or vanished) releases its locks. */
const idleInTransactionTimeoutMs = 60_000;
/** The listener's reconnection backoff. */
const relistenDelaysMs = [100, 250, 500, 1_000, 2_000];

const schemaName = /^[a-z_][a-z0-9_]{0,62}$/;
const duplicateSchema = '42P06';
const uniqueViolation = '23505';

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

async function ensureSchema(databaseUrl: string, schema: string, connectionTimeoutMs: number): Promise<void> {
  const client = new pg.Client({
    connectionString: databaseUrl,
    connectionTimeoutMillis: connectionTimeoutMs,
  });
  // Its failures reach the awaited calls below; unheard, the 'error' event would crash the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdentifier(schema)}`);
  } catch (error) {
    // Two processes creating the same schema at once: the loser sees a duplicate, which is success.
    const code = errorCode(error);
    if (code !== duplicateSchema && code !== uniqueViolation) throw error;
  } finally {
    await client.end();
  }
}

function asQueryable(client: pg.PoolClient | pg.Pool): Queryable {
  return {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- see Queryable
    async query<R>(sql: string, params: readonly unknown[] = []) {
      const result = await client.query(sql, [...params]);
      return { rows: result.rows as R[] };
    },
  };
}

/**
 * A listener connection shared by every channel this store listens on. When the connection is lost it
 * reconnects with backoff, listens on every channel again, and then calls each handler once with an empty
 * payload: notifications sent meanwhile were lost, so listeners should look for work.
 */
class Notifications {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private reconnectTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly config: pg.ClientConfig) {}

  private async connection(): Promise<pg.Client> {
    if (this.client !== undefined) return this.client;
    this.connecting ??= (async () => {
      const client = new pg.Client(this.config);
      client.on('notification', (message) => {
        for (const handler of this.handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      // A lost listener connection must not crash the process: it is replaced in the background.
      const lost = () => {
        if (this.client !== client && this.client !== undefined) return;
        this.client = undefined;
        this.connecting = undefined;
        client.removeAllListeners('end');
        this.reconnect(0);
      };
      client.on('error', lost);
      client.on('end', lost);
      try {
        await client.connect();
      } catch (error) {
        this.connecting = undefined;
        client.removeAllListeners('end');
        throw error;
      }
      this.client = client;
      return client;
    })();
    return this.connecting;
  }

  private reconnect(attempt: number): void {
    if (this.closed || this.handlers.size === 0 || this.reconnectTimer !== undefined) return;
    const delay = relistenDelaysMs[Math.min(attempt, relistenDelaysMs.length - 1)] ?? 1_000;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.relisten().catch(() => {
        this.reconnect(attempt + 1);
      });
    }, delay);
    this.reconnectTimer.unref();
  }

  private async relisten(): Promise<void> {
    const client = await this.connection();
    for (const channel of this.handlers.keys()) await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    for (const handlers of this.handlers.values()) for (const handler of handlers) handler('');
  }

  async listen(channel: string, onNotify: (payload: string) => void): Promise<() => Promise<void>> {
    const client = await this.connection();
    let set = this.handlers.get(channel);
    if (set === undefined) {
      set = new Set();
      this.handlers.set(channel, set);
      await client.query(`LISTEN ${quoteIdentifier(channel)}`);
    }
    set.add(onNotify);
    const handlers = set;
    return async () => {
      handlers.delete(onNotify);
      if (handlers.size === 0 && this.handlers.get(channel) === handlers) {
        this.handlers.delete(channel);
        // A lost connection listens to nothing, so there is nothing to undo on it.
        await this.client?.query(`UNLISTEN ${quoteIdentifier(channel)}`).catch(() => undefined);
      }
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.reconnectTimer);
    const client = this.client;
    this.client = undefined;
    this.connecting = undefined;
    this.handlers.clear();
    client?.removeAllListeners('end');
    await client?.end();
  }
}

/** A timed-out query is still running on its connection: that connection cannot be rolled back or reused. */
function leftConnectionBusy(error: unknown): boolean {
  return error instanceof Error && error.message === 'Query read timeout';
}

/** Opens a pool on PostgreSQL; the schema (if any) is created and used as the search_path. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<Store> {
  const { databaseUrl, schema } = options;
  const connectionTimeoutMs = options.connectionTimeoutMs ?? defaultConnectionTimeoutMs;
  if (schema !== undefined) {
    if (!schemaName.test(schema)) {
      throw new Error(
        `Expected a schema name of lower-case letters, digits and underscores, received ${JSON.stringify(schema)}.`,
      );
    }
    await ensureSchema(databaseUrl, schema, connectionTimeoutMs);
  }
  const queryTimeoutMs = options.queryTimeoutMs ?? defaultQueryTimeoutMs;
  const config: pg.ClientConfig = {
    connectionString: databaseUrl,
    ...(schema === undefined ? {} : { options: `-c search_path=${schema}` }),
    connectionTimeoutMillis: connectionTimeoutMs,
    statement_timeout: queryTimeoutMs,
    // The client's own limit catches a database that stopped answering altogether.
    query_timeout: queryTimeoutMs + 1_000,
    idle_in_transaction_session_timeout: idleInTransactionTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
  };
  const pool = new pg.Pool({ ...config, max: options.poolSize ?? 10 });
  // A connection that drops emits 'error' on its client (checked out or idle) and, when idle, on the pool;
  // with no listener Node would crash. Its queries fail on their own, and the pool discards it.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const notifications = new Notifications(config);
  const queryable = asQueryable(pool);

  return {
    kind: 'postgres',
    ...queryable,
    async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(asQueryable(client));
        await client.query('COMMIT');
        client.release();
        return result;
      } catch (error) {
        if (leftConnectionBusy(error)) {
          // Closing the connection rolls the transaction back on the server.
          client.release(true);
          throw error;
        }
        try {
          await client.query('ROLLBACK');
          client.release();
        } catch (rollbackError) {
          // A connection that cannot roll back is broken: destroy it rather than reuse it.
          client.release(rollbackError instanceof Error ? rollbackError : true);
        }
        throw error;
      }
    },
    listen: (channel, onNotify) => notifications.listen(channel, onNotify),
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async close() {
      await notifications.close();
      await pool.end();
    },
  };
}
