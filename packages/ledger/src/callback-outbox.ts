// The callback outbox: one delivery row per enabled endpoint, written in the same database transaction
// as the state change it announces. Workers claim due rows with FOR UPDATE SKIP LOCKED and a lease, so
// many can run at once without taking the same row; every attempt is recorded, and only the worker holding
// a delivery's lease moves it on. A resend, of one transaction's callback or of every failed delivery since
// a time, restarts the retry schedule, keeping the attempts made so far. Callers read their deliveries a
// page at a time, newest first, by keyset.

import { decodeDeliveryCursor, encodeDeliveryCursor, readDateBound } from '@topup/validation';
import { callbackEventOf, callbackPayload, type CallbackEvent } from './callback-payload.js';
import type { CallbackFormat } from './callback-endpoints.js';
import { newDeliveryId } from './ids.js';
import type { ChannelBalance } from './ledger-accounts.js';
import { LedgerError } from './ledger-error.js';
import { dateRangeConditions, pageLimitOf, Parameters } from './listing-pages.js';
import type { SqlStatement } from './sql-statement.js';
import type { Queryable } from './store.js';
import { instantOf } from './transaction-date.js';
import type { TransactionRecord } from './transaction-record.js';

/**
 * The NOTIFY channel that wakes delivery workers.
 *
 * @example
 * ```ts
 * import { createLedger, openStore, outboxChannel } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const unsubscribe = await store.listen(outboxChannel, () => console.log('callbacks are due'));
 * await unsubscribe();
 * ```
 */
export const outboxChannel = 'topup_outbox';

/** How much of a receiver's answer an attempt keeps. */
const excerptBytes = 20 * 1024;

/** A cap on `listDeliveries`, newest first. */
const listLimit = 500;

/** Most failed deliveries one `resendFailedCallbacks` queues again, so one call is one bounded write. */
export const failedResendLimit = 10_000;

/**
 * Where a callback delivery stands: waiting for (another) attempt, delivered, or given up.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { id } = await ledger.createAccount({ name: 'Duka Supplies' });
 * await ledger.listDeliveries(id, { status: 'failed' }); // []
 * ```
 */
export type DeliveryStatus = 'pending' | 'delivered' | 'failed';
/**
 * How a delivery attempt ended: delivered, to be retried, failed for good, or the endpoint is gone (it
 * answered 410), which disables it.
 *
 * @example
 * ```ts
 * import type { AttemptOutcome } from '@topup/ledger';
 *
 * function outcomeOf(httpStatus: number, attempts: number): AttemptOutcome {
 *   if (httpStatus >= 200 && httpStatus < 300) return 'delivered';
 *   if (httpStatus === 410) return 'endpoint_gone';
 *   return attempts < 10 ? 'retry' : 'failed';
 * }
 * ```
 */
export type AttemptOutcome = 'delivered' | 'retry' | 'failed' | 'endpoint_gone';

/**
 * A delivery a worker has leased: what to send and where.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 * import { signCallback } from '@topup/signing';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const [delivery] = await ledger.claimDeliveries({ workerId: 'worker-1', limit: 10, leaseMs: 30_000 });
 * if (delivery) {
 *   const [secret = ''] = await ledger.endpointSecrets(delivery.endpointId);
 *   const timestamp = Math.floor(Date.now() / 1000);
 *   const headers = signCallback({ secrets: [secret], id: delivery.id, timestamp, body: delivery.payload });
 *   console.log('POST', delivery.url, headers['webhook-id']);
 * }
 * ```
 */
export interface ClaimedDelivery {
  /** The stable `webhook-id`. */
  id: string;
  endpointId: string;
  accountId: string;
  reference: string;
  event: CallbackEvent;
  url: string;
  format: CallbackFormat;
  /** The callback envelope as JSON text. */
  payload: string;
  /** Attempts made before this one. */
  attempts: number;
  /**
   * Attempts made since the retry schedule last started: as `attempts` until the delivery is resent, and
   * counted again from 0 after each resend. Its place in the schedule.
   */
  attemptsInSchedule: number;
  createdAt: Date;
  leaseUntil: Date;
}

/**
 * What a worker reports after one attempt to deliver a callback. It moves the delivery on only while the
 * worker still holds the delivery's lease; otherwise the attempt is kept in the history and nothing else
 * changes, since another worker has taken the delivery over.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const [delivery] = await ledger.claimDeliveries({ workerId: 'worker-1', limit: 1, leaseMs: 30_000 });
 * if (delivery) {
 *   await ledger.recordDeliveryAttempt(delivery.id, {
 *     workerId: 'worker-1',
 *     httpStatus: 503,
 *     durationMs: 120,
 *     responseExcerpt: 'Service Unavailable',
 *     outcome: 'retry',
 *     nextAttemptAt: new Date(Date.now() + 60_000),
 *   });
 * }
 * ```
 */
export interface DeliveryAttempt {
  workerId: string;
  httpStatus?: number;
  durationMs: number;
  responseExcerpt: string;
  error?: string;
  outcome: AttemptOutcome;
  /** When to try again; `retry` only (default: now). */
  nextAttemptAt?: Date;
}

/**
 * One recorded delivery attempt, as `listDeliveries` shows it.
 *
 * @example
 * ```ts
 * import type { AttemptRecord } from '@topup/ledger';
 *
 * function summary(attempt: AttemptRecord): string {
 *   return `${attempt.attemptedAt.toISOString()} ${attempt.httpStatus ?? attempt.error ?? ''} ${attempt.outcome}`;
 * }
 * ```
 */
export interface AttemptRecord {
  attemptedAt: Date;
  workerId: string;
  httpStatus: number | undefined;
  durationMs: number;
  responseExcerpt: string;
  error: string | undefined;
  outcome: AttemptOutcome;
}

/**
 * A callback delivery to one endpoint, with its attempts, as `listDeliveries` shows it.
 *
 * @example
 * ```ts
 * import { createLedger, openStore } from '@topup/ledger';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const ledger = createLedger(store);
 *
 * const { id } = await ledger.createAccount({ name: 'Duka Supplies' });
 * for (const delivery of await ledger.listDeliveries(id, { reference: 'TXVQYSN6XMFZTY' })) {
 *   console.log(delivery.id, delivery.status, delivery.attempts.length);
 * }
 * ```
 */
export interface DeliveryRecord {
  id: string;
  endpointId: string;
  reference: string;
  event: CallbackEvent;
  status: DeliveryStatus;
  attemptCount: number;
  nextAttemptAt: Date;
  lastError: string;
  createdAt: Date;
  deliveredAt: Date | undefined;
  attempts: AttemptRecord[];
}

/** A transaction whose callback is due, with its channel's balance just after it. */
export interface AnnouncedTransaction {
  record: TransactionRecord;
  channel: ChannelBalance;
}

/** An enabled endpoint that listens for an account's callbacks. */
export interface ListeningEndpoint {
  id: string;
  account_id: string;
}

/**
 * The enabled endpoints of these accounts (or only `endpointIds`), in id order. Read before a batch takes
 * its row locks, so the locks are held for the writes alone.
 */
export async function listeningEndpoints(
  db: Queryable,
  accountIds: readonly string[],
  endpointIds?: readonly string[],
): Promise<ListeningEndpoint[]> {
  if (accountIds.length === 0) return [];
  const { rows } = await db.query<ListeningEndpoint>(
    `SELECT id, account_id FROM callback_endpoints
     WHERE account_id = ANY($1::text[]) AND enabled AND removed_at IS NULL
       AND ($2::text[] IS NULL OR id = ANY($2::text[]))
     ORDER BY id`,
    [[...new Set(accountIds)], endpointIds === undefined ? null : [...endpointIds]],
  );
  return rows;
}

/**
 * One INSERT queueing each terminal transaction's callback for every listed endpoint of its account,
 * returning the ids it queued; none when there is nothing to queue.
 */
export function callbackInsertStatement(
  announced: readonly AnnouncedTransaction[],
  endpoints: readonly ListeningEndpoint[],
  now: Date,
): SqlStatement | undefined {
  const deliveries = announced.flatMap(({ record, channel }) => {
    const event = callbackEventOf(record);
    if (event === undefined) return [];
    const mine = endpoints.filter((endpoint) => endpoint.account_id === record.accountId);
    if (mine.length === 0) return [];
    const payload = callbackPayload(record, channel);
    return mine.map((endpoint) => ({ endpointId: endpoint.id, record, event, payload }));
  });
  if (deliveries.length === 0) return undefined;
  return {
    text: `INSERT INTO callback_deliveries (id, endpoint_id, account_id, reference, event, payload, next_attempt_at,
       created_at, updated_at)
     SELECT d, e, a, r, v, p, $7::timestamptz, $7::timestamptz, $7::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS n (d, e, a, r, v, p)
     ON CONFLICT (endpoint_id, reference) DO NOTHING
     RETURNING id`,
    values: [
      deliveries.map(() => newDeliveryId()),
      deliveries.map((delivery) => delivery.endpointId),
      deliveries.map((delivery) => delivery.record.accountId),
      deliveries.map((delivery) => delivery.record.reference),
      deliveries.map((delivery) => delivery.event),
      deliveries.map((delivery) => delivery.payload),
      now.toISOString(),
    ],
  };
}

/**
 * Queues each transaction's callback for every enabled endpoint of its account (or only `endpointIds`),
 * with one read of the endpoints and one INSERT for all of them. Inside the caller's transaction; returns
 * how many deliveries were queued.
 */
export async function enqueueCallbacks(
  tx: Queryable,
  announced: readonly AnnouncedTransaction[],
  now: Date,
  endpointIds?: readonly string[],
): Promise<number> {
  const terminal = announced.filter(({ record }) => callbackEventOf(record) !== undefined);
  const endpoints = await listeningEndpoints(
    tx,
    terminal.map(({ record }) => record.accountId),
    endpointIds,
  );
  const insert = callbackInsertStatement(terminal, endpoints, now);
  if (insert === undefined) return 0;
  return (await tx.query(insert.text, insert.values)).rows.length;
}

interface ClaimRow {
  id: string;
  endpoint_id: string;
  account_id: string;
  reference: string;
  event: CallbackEvent;
  payload: string;
  attempts: number;
  attempts_in_schedule: number;
  created_at: Date;
  lease_until: Date;
  url: string;
  format: CallbackFormat;
}

/**
 * Where a claim starts among the accounts with pending deliveries, and what it may take.
 *
 * @example
 * ```ts
 * import type { ClaimOptions, Ledger } from '@topup/ledger';
 *
 * declare const ledger: Ledger;
 * let after: string | undefined;
 * const options = (): ClaimOptions => ({
 *   workerId: 'worker-1',
 *   limit: 64,
 *   leaseMs: 35_000,
 *   ...(after === undefined ? {} : { afterAccountId: after }),
 * });
 * const claimed = await ledger.claimDeliveries(options());
 * after = claimed.at(-1)?.accountId; // the next claim goes on from there
 * ```
 */
export interface ClaimOptions {
  readonly workerId: string;
  readonly limit: number;
  readonly leaseMs: number;
  /**
   * Start after this account id (the last one the previous claim served), so successive claims go round
   * the accounts; default from the first.
   */
  readonly afterAccountId?: string;
}

/**
 * Leases up to `limit` due deliveries to `workerId` for `leaseMs`; rows other workers hold are skipped.
 * They come in account order, so the last one's account is where the next claim should start. Fair across
 * accounts: it walks the accounts with pending deliveries in id order from `afterAccountId`
 * (wrapping round once), and takes their due deliveries in turns (every account's first, then every
 * account's second, …), so one account's backlog never stands in front of another account's callbacks.
 * A resend that waited for an attempt whose worker never reported it starts its schedule now.
 */
export async function claimDeliveries(
  db: Queryable,
  options: ClaimOptions,
  now: Date,
): Promise<ClaimedDelivery[]> {
  const after = options.afterAccountId ?? '';
  const claimed = await claimFrom(db, options, after, now);
  if (claimed.length >= options.limit || after === '') return claimed;
  // The accounts after the cursor ran out: go round to the first ones.
  return [
    ...claimed,
    ...(await claimFrom(db, { ...options, limit: options.limit - claimed.length }, '', now)),
  ];
}

async function claimFrom(
  db: Queryable,
  options: ClaimOptions,
  after: string,
  now: Date,
): Promise<ClaimedDelivery[]> {
  const { rows } = await db.query<ClaimRow & { turn: string; position: string }>(
    // The accounts are found by a loose index scan (one probe per account, whatever its backlog), and
    // each account's due deliveries by its own range of the same index; an account gets at most twice
    // its share of the batch read, so a claim reads a few hundred index entries at most. Disabling or
    // removing an endpoint fails its pending deliveries, so the endpoint check below only guards a race
    // with that.
    `WITH RECURSIVE accounts (account_id, position) AS (
       (SELECT account_id, 1 FROM callback_deliveries
        WHERE status = 'pending' AND account_id > $5 ORDER BY account_id LIMIT 1)
       UNION ALL
       SELECT following.account_id, a.position + 1 FROM accounts a,
         LATERAL (SELECT account_id FROM callback_deliveries
                  WHERE status = 'pending' AND account_id > a.account_id ORDER BY account_id LIMIT 1) following
       WHERE a.position < $2
     ),
     share AS (SELECT greatest(ceil(2.0 * $2 / nullif(count(*), 0)), 4)::int AS per_account FROM accounts),
     candidates AS (
       SELECT c.id, a.position, c.turn FROM accounts a, share,
         LATERAL (SELECT d.id, row_number() OVER (ORDER BY d.next_attempt_at, d.id) AS turn
                  FROM callback_deliveries d
                  WHERE d.status = 'pending' AND d.account_id = a.account_id
                    AND d.next_attempt_at <= $1::timestamptz
                    AND (d.lease_until IS NULL OR d.lease_until <= $1::timestamptz)
                  ORDER BY d.next_attempt_at, d.id
                  LIMIT share.per_account) c
     ),
     due AS (
       SELECT d.id, c.turn, c.position FROM callback_deliveries d JOIN candidates c ON c.id = d.id
       -- Checked again here, where rows are locked: a row another claimer leased since this statement
       -- began is re-read once its lock is free, and must fail these to be left alone.
       WHERE d.status = 'pending' AND d.next_attempt_at <= $1::timestamptz
         AND (d.lease_until IS NULL OR d.lease_until <= $1::timestamptz)
       ORDER BY c.turn, c.position
       LIMIT $2
       FOR UPDATE OF d SKIP LOCKED
     )
     UPDATE callback_deliveries d SET lease_owner = $3, lease_until = $4::timestamptz, updated_at = $1::timestamptz,
       schedule_start = LEAST(d.schedule_start, d.attempts)
     FROM due, callback_endpoints e
     WHERE d.id = due.id AND e.id = d.endpoint_id AND e.enabled AND e.removed_at IS NULL
     RETURNING d.id, d.endpoint_id, d.account_id, d.reference, d.event, d.payload, d.attempts,
       d.attempts - d.schedule_start AS attempts_in_schedule, d.created_at, d.lease_until, e.url, e.format,
       due.turn, due.position`,
    [
      now.toISOString(),
      options.limit,
      options.workerId,
      new Date(now.getTime() + options.leaseMs).toISOString(),
      after,
    ],
  );
  return rows
    .sort((a, b) => Number(a.position) - Number(b.position) || Number(a.turn) - Number(b.turn))
    .map((row) => ({
      id: row.id,
      endpointId: row.endpoint_id,
      accountId: row.account_id,
      reference: row.reference,
      event: row.event,
      url: row.url,
      format: row.format,
      payload: row.payload,
      attempts: row.attempts,
      attemptsInSchedule: row.attempts_in_schedule,
      createdAt: row.created_at,
      leaseUntil: row.lease_until,
    }));
}

/** The first 20 KB of a receiver's answer, cut on a character boundary. */
function excerptOf(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= excerptBytes) return text;
  return new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, excerptBytes))
    .replace(/\uFFFD$/u, '');
}

/** What a delivery's last error says after an attempt. */
function lastErrorOf(attempt: DeliveryAttempt): string {
  return attempt.error ?? (attempt.httpStatus === undefined ? '' : `HTTP ${attempt.httpStatus}`);
}

/**
 * The SET clause that moves a delivery `d` on after an attempt `u` (status, next_attempt_at, last_error),
 * made at the time in the parameter `at`. `schedule_start > attempts` means a resend arrived while the
 * attempt was in flight, perhaps after that attempt's answer: the caller asked for a send after its
 * request, so the delivery stays pending and due whatever this attempt's outcome, with its schedule
 * starting after it (an endpoint found gone still fails it, with the endpoint's other deliveries).
 */
const movedOn = (at: string) => `
       status = CASE WHEN d.schedule_start > d.attempts THEN 'pending' ELSE u.status END,
       attempts = d.attempts + 1, lease_owner = NULL, lease_until = NULL, updated_at = ${at}::timestamptz,
       next_attempt_at = CASE WHEN d.schedule_start > d.attempts THEN d.next_attempt_at
         ELSE COALESCE(u.next_attempt_at, d.next_attempt_at) END,
       last_error = CASE WHEN u.status = 'delivered' THEN '' ELSE u.last_error END,
       delivered_at = CASE WHEN u.status = 'delivered' AND d.schedule_start <= d.attempts THEN ${at}::timestamptz
         ELSE d.delivered_at END`;

/** Where a delivery stands after an attempt: retried deliveries stay pending. */
function statusAfter(attempt: DeliveryAttempt): DeliveryStatus {
  return attempt.outcome === 'delivered' ? 'delivered' : attempt.outcome === 'retry' ? 'pending' : 'failed';
}

/**
 * Records an attempt and, while `attempt.workerId` holds the lease, moves the delivery on: delivered,
 * retried at `nextAttemptAt`, failed, or (for `endpoint_gone`) failed with its endpoint disabled, whoever
 * holds the lease. Releases the lease. A delivery that is no longer pending, or whose lease another worker
 * holds, keeps its state; the attempt is recorded all the same. A delivery resent while this attempt was
 * in flight stays pending and due, at the start of its schedule, whatever this attempt's outcome.
 */
export async function recordDeliveryAttempt(
  tx: Queryable,
  deliveryId: string,
  attempt: DeliveryAttempt,
  now: Date,
): Promise<void> {
  const { rows } = await tx.query<{ endpoint_id: string }>(
    'SELECT endpoint_id FROM callback_deliveries WHERE id = $1',
    [deliveryId],
  );
  const endpointId = rows[0]?.endpoint_id;
  if (endpointId === undefined)
    throw new Error(`Expected callback delivery ${deliveryId} to exist, found none.`);
  // Endpoint before deliveries, the order removeCallbackEndpoint takes them in, so the two never deadlock.
  if (attempt.outcome === 'endpoint_gone') {
    await tx.query('SELECT id FROM callback_endpoints WHERE id = $1 FOR NO KEY UPDATE', [endpointId]);
  }
  await tx.query(
    `INSERT INTO callback_attempts (delivery_id, worker_id, attempted_at, http_status, duration_ms, response_excerpt,
       error, outcome)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [
      deliveryId,
      attempt.workerId,
      now.toISOString(),
      attempt.httpStatus ?? null,
      Math.max(0, Math.round(attempt.durationMs)),
      excerptOf(attempt.responseExcerpt),
      attempt.error ?? null,
      attempt.outcome,
    ],
  );
  const lastError = lastErrorOf(attempt);
  const status = statusAfter(attempt);
  await tx.query(
    `UPDATE callback_deliveries AS d SET ${movedOn('$3')}
     FROM (VALUES ($2::text, $4::timestamptz, $5::text)) AS u (status, next_attempt_at, last_error)
     WHERE d.id = $1 AND d.status = 'pending' AND d.lease_owner = $6`,
    [
      deliveryId,
      status,
      now.toISOString(),
      attempt.outcome === 'retry' ? (attempt.nextAttemptAt ?? now).toISOString() : null,
      lastError,
      attempt.workerId,
    ],
  );
  if (attempt.outcome === 'endpoint_gone') {
    const reason = `the receiver answered ${attempt.httpStatus === undefined ? 'that it is gone' : `HTTP ${attempt.httpStatus}`}`;
    await tx.query(`UPDATE callback_endpoints SET enabled = false, disabled_reason = $2 WHERE id = $1`, [
      endpointId,
      reason,
    ]);
    await tx.query(
      `UPDATE callback_deliveries SET status = 'failed', last_error = 'endpoint disabled: ' || $2, lease_owner = NULL,
         lease_until = NULL, updated_at = $3::timestamptz
       WHERE endpoint_id = $1 AND status = 'pending'`,
      [endpointId, reason, now.toISOString()],
    );
  }
}

/**
 * Records many attempts at once: one INSERT of the attempts and one UPDATE of their deliveries, each moved
 * on as `recordDeliveryAttempt` would (delivered, retried at `nextAttemptAt`, or failed, only while its
 * attempt's worker holds the lease) with its lease released. For `delivered`, `retry` and `failed` only (an `endpoint_gone` also disables the endpoint: use
 * `recordDeliveryAttempt`), and for distinct deliveries. Returns the ids of the deliveries that exist;
 * attempts for any other id are not recorded.
 */
export async function recordDeliveryAttempts(
  tx: Queryable,
  attempts: readonly { deliveryId: string; attempt: DeliveryAttempt }[],
  now: Date,
): Promise<Set<string>> {
  if (attempts.length === 0) return new Set();
  const at = now.toISOString();
  const { rows } = await tx.query<{ delivery_id: string }>(
    `INSERT INTO callback_attempts (delivery_id, worker_id, attempted_at, http_status, duration_ms, response_excerpt,
       error, outcome)
     SELECT u.delivery_id, u.worker_id, $8::timestamptz, u.http_status, u.duration_ms, u.response_excerpt, u.error,
       u.outcome
     FROM unnest($1::text[], $2::text[], $3::int[], $4::int[], $5::text[], $6::text[], $7::text[])
       AS u (delivery_id, worker_id, http_status, duration_ms, response_excerpt, error, outcome)
     WHERE EXISTS (SELECT 1 FROM callback_deliveries d WHERE d.id = u.delivery_id)
     RETURNING delivery_id`,
    [
      attempts.map(({ deliveryId }) => deliveryId),
      attempts.map(({ attempt }) => attempt.workerId),
      attempts.map(({ attempt }) => attempt.httpStatus ?? null),
      attempts.map(({ attempt }) => Math.max(0, Math.round(attempt.durationMs))),
      attempts.map(({ attempt }) => excerptOf(attempt.responseExcerpt)),
      attempts.map(({ attempt }) => attempt.error ?? null),
      attempts.map(({ attempt }) => attempt.outcome),
      at,
    ],
  );
  const recorded = new Set(rows.map((row) => row.delivery_id));
  const moved = attempts.filter(({ deliveryId }) => recorded.has(deliveryId));
  if (moved.length === 0) return recorded;
  await tx.query(
    `UPDATE callback_deliveries AS d SET ${movedOn('$5')}
     FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $6::text[])
       AS u (id, status, next_attempt_at, last_error, worker_id)
     WHERE d.id = u.id AND d.status = 'pending' AND d.lease_owner = u.worker_id`,
    [
      moved.map(({ deliveryId }) => deliveryId),
      moved.map(({ attempt }) => statusAfter(attempt)),
      moved.map(({ attempt }) =>
        attempt.outcome === 'retry' ? (attempt.nextAttemptAt ?? now).toISOString() : null,
      ),
      moved.map(({ attempt }) => lastErrorOf(attempt)),
      at,
      moved.map(({ attempt }) => attempt.workerId),
    ],
  );
  return recorded;
}

/**
 * Gives up the leases `workerId` holds on these pending deliveries, without recording an attempt, so any
 * worker may claim them at once (a worker that stops, or that could not start an attempt in time). Leases
 * held by another worker, and deliveries no longer pending, are left alone. Returns how many were released.
 */
export async function releaseDeliveries(
  db: Queryable,
  workerId: string,
  deliveryIds: readonly string[],
  now: Date,
): Promise<number> {
  if (deliveryIds.length === 0) return 0;
  const { rows } = await db.query(
    `UPDATE callback_deliveries SET lease_owner = NULL, lease_until = NULL, updated_at = $3::timestamptz,
       schedule_start = LEAST(schedule_start, attempts)
     WHERE id = ANY($1::text[]) AND lease_owner = $2 AND status = 'pending'
     RETURNING id`,
    [[...deliveryIds], workerId, now.toISOString()],
  );
  return rows.length;
}

/**
 * Queues a terminal transaction's callback again: its deliveries to the account's enabled endpoints (or
 * the one given) are made pending and due now, keeping their webhook-id and their attempt history, with
 * the retry schedule started again (after the attempt in flight, if one is); an endpoint without a
 * delivery for it gets a new one. Returns how many deliveries are queued (0 when the transaction is not
 * terminal or no endpoint applies).
 */
export async function requeueCallbacks(
  tx: Queryable,
  record: TransactionRecord,
  channel: ChannelBalance,
  now: Date,
  endpointId: string | undefined,
): Promise<number> {
  if (callbackEventOf(record) === undefined) return 0;
  const { rows: endpoints } = await tx.query<{ id: string }>(
    `SELECT id FROM callback_endpoints
     WHERE account_id = $1 AND enabled AND removed_at IS NULL AND ($2::text IS NULL OR id = $2)`,
    [record.accountId, endpointId ?? null],
  );
  if (endpoints.length === 0) return 0;
  const ids = endpoints.map((endpoint) => endpoint.id);
  // A delivery that is pending keeps its lease: a worker may be sending it right now. Its schedule then
  // starts after that attempt, which `movedOn` applies when the attempt is recorded.
  const { rows: reset } = await tx.query<{ endpoint_id: string }>(
    `UPDATE callback_deliveries SET
       next_attempt_at = $3::timestamptz, updated_at = $3::timestamptz,
       schedule_start = CASE WHEN status = 'pending' AND lease_until > $3::timestamptz THEN attempts + 1
         ELSE attempts END,
       lease_owner = CASE WHEN status = 'pending' THEN lease_owner END,
       lease_until = CASE WHEN status = 'pending' THEN lease_until END,
       status = 'pending'
     WHERE reference = $1 AND endpoint_id = ANY($2::text[])
     RETURNING endpoint_id`,
    [record.reference, ids, now.toISOString()],
  );
  const resetIds = new Set(reset.map((row) => row.endpoint_id));
  const missing = ids.filter((id) => !resetIds.has(id));
  const added = missing.length === 0 ? 0 : await enqueueCallbacks(tx, [{ record, channel }], now, missing);
  return reset.length + added;
}

interface DeliveryRow {
  id: string;
  endpoint_id: string;
  reference: string;
  event: CallbackEvent;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  last_error: string;
  created_at: Date;
  delivered_at: Date | null;
  created_micros: string;
}

interface AttemptRow {
  delivery_id: string;
  worker_id: string;
  attempted_at: Date;
  http_status: number | null;
  duration_ms: number;
  response_excerpt: string;
  error: string | null;
  outcome: AttemptOutcome;
}

/**
 * Which of a caller's deliveries `listDeliveryPage` shows: every field narrows the list, and `cursor` (a
 * page's `nextCursor`) goes on after that page. `from` and `to` are ISO 8601 dates or date-times
 * (`created_at >= from`, `< to`), in the ledger's time zone when they carry no offset. `limit` is 1 to
 * 100, 50 by default.
 *
 * @example
 * ```ts
 * import type { DeliveryFilter } from '@topup/ledger';
 *
 * const filter: DeliveryFilter = {
 *   status: 'failed',
 *   endpointId: 'ep_4KX2',
 *   from: '2025-11-01T00:00:00Z',
 *   limit: 100,
 * };
 * ```
 */
export interface DeliveryFilter {
  reference?: string | undefined;
  status?: DeliveryStatus | undefined;
  endpointId?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  limit?: number | undefined;
  cursor?: string | undefined;
}

/**
 * One page of `listDeliveryPage`: the deliveries, newest first, each with every attempt, and the cursor of
 * the next page (empty when this is the last one).
 *
 * @example
 * ```ts
 * import { createLedger, openStore, type DeliveryPage } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * let page: DeliveryPage = await ledger.listDeliveryPage(account.id, { status: 'failed' });
 * while (page.nextCursor !== '') {
 *   page = await ledger.listDeliveryPage(account.id, { status: 'failed', cursor: page.nextCursor });
 * }
 * ```
 */
export interface DeliveryPage {
  deliveries: DeliveryRecord[];
  nextCursor: string;
}

/**
 * The account's deliveries the filter admits, newest first by (created_at, id), at most `limit`, each with
 * every attempt, oldest first. Read by keyset on callback_deliveries_account_newest: a page costs the rows
 * from where the cursor points, never an OFFSET.
 */
async function deliveriesPage(
  db: Queryable,
  accountId: string,
  filter: DeliveryFilter,
  limit: number,
  timeZone: string,
): Promise<DeliveryPage> {
  const parameters = new Parameters();
  const conditions = [`account_id = ${parameters.add(accountId)}`];
  if (filter.reference !== undefined) conditions.push(`reference = ${parameters.add(filter.reference)}`);
  if (filter.status !== undefined) conditions.push(`status = ${parameters.add(filter.status)}`);
  if (filter.endpointId !== undefined) conditions.push(`endpoint_id = ${parameters.add(filter.endpointId)}`);
  conditions.push(...dateRangeConditions('created_at', filter, parameters, timeZone));
  if (filter.cursor !== undefined) {
    const position = decodeDeliveryCursor(filter.cursor);
    if (position === undefined) {
      throw new LedgerError(
        'invalid_input',
        `Expected a cursor of list_callback_deliveries, received ${filter.cursor}.`,
      );
    }
    // Microseconds, as the row keeps them; a row comparison the index answers as one range.
    const createdAt = `('epoch'::timestamptz + ${parameters.add(position.createdMicros)}::bigint * interval '1 microsecond')`;
    conditions.push(`(created_at, id) < (${createdAt}, ${parameters.add(position.id)})`);
  }
  const { rows } = await db.query<DeliveryRow>(
    `SELECT id, endpoint_id, reference, event, status, attempts, next_attempt_at, last_error, created_at, delivered_at,
       (extract(epoch FROM created_at) * 1000000)::bigint::text AS created_micros
     FROM callback_deliveries WHERE ${conditions.join(' AND ')}
     ORDER BY created_at DESC, id DESC LIMIT ${parameters.add(limit + 1)}`,
    parameters.values,
  );
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    deliveries: await withAttempts(db, shown),
    nextCursor:
      rows.length > limit && last !== undefined
        ? encodeDeliveryCursor({ createdMicros: last.created_micros, id: last.id })
        : '',
  };
}

async function withAttempts(db: Queryable, rows: readonly DeliveryRow[]): Promise<DeliveryRecord[]> {
  if (rows.length === 0) return [];
  const { rows: attemptRows } = await db.query<AttemptRow>(
    `SELECT delivery_id, worker_id, attempted_at, http_status, duration_ms, response_excerpt, error, outcome
     FROM callback_attempts WHERE delivery_id = ANY($1::text[]) ORDER BY attempted_at, id`,
    [rows.map((row) => row.id)],
  );
  const attempts = new Map<string, AttemptRecord[]>();
  for (const row of attemptRows) {
    const list = attempts.get(row.delivery_id) ?? [];
    list.push({
      attemptedAt: row.attempted_at,
      workerId: row.worker_id,
      httpStatus: row.http_status ?? undefined,
      durationMs: row.duration_ms,
      responseExcerpt: row.response_excerpt,
      error: row.error ?? undefined,
      outcome: row.outcome,
    });
    attempts.set(row.delivery_id, list);
  }
  return rows.map((row) => ({
    id: row.id,
    endpointId: row.endpoint_id,
    reference: row.reference,
    event: row.event,
    status: row.status,
    attemptCount: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    createdAt: row.created_at,
    deliveredAt: row.delivered_at ?? undefined,
    attempts: attempts.get(row.id) ?? [],
  }));
}

/** One page of the account's deliveries (`DeliveryFilter`); `invalid_input` for a bad limit, bound or cursor. */
export function listDeliveryPage(
  db: Queryable,
  accountId: string,
  filter: DeliveryFilter,
  timeZone: string,
): Promise<DeliveryPage> {
  return deliveriesPage(db, accountId, filter, pageLimitOf(filter.limit), timeZone);
}

/** The account's deliveries (newest first, at most 500), each with every attempt, oldest first. */
export async function listDeliveries(
  db: Queryable,
  accountId: string,
  filter: { reference?: string; status?: DeliveryStatus },
  timeZone: string,
): Promise<DeliveryRecord[]> {
  return (await deliveriesPage(db, accountId, filter, listLimit, timeZone)).deliveries;
}

/**
 * What `resendFailedCallbacks` did: how many failed deliveries it queued again, whether failed ones were
 * left for another call (past `failedResendLimit`), and the instant `since` named; or that the endpoint
 * named is none of the account's enabled endpoints.
 *
 * @example
 * ```ts
 * import type { FailedCallbacksResend } from '@topup/ledger';
 *
 * function summary(resend: FailedCallbacksResend): string {
 *   if (resend.kind === 'endpoint_not_found') return 'no such endpoint';
 *   return `${resend.queued} queued since ${resend.since.toISOString()}${resend.more ? ', more left' : ''}`;
 * }
 * ```
 */
export type FailedCallbacksResend =
  { kind: 'queued'; queued: number; more: boolean; since: Date } | { kind: 'endpoint_not_found' };

/**
 * Queues the account's failed deliveries created at or after `since` (an ISO 8601 date or date-time, in
 * `timeZone` without an offset) again, oldest first and at most `limit`, to its enabled endpoints (or the
 * one given) only: pending and due now, keeping their webhook-id and attempt history, with the retry
 * schedule started again. A failed delivery holds no lease, so none is in flight. The endpoints are
 * locked (shared) before the deliveries, the order removing an endpoint takes them in, so an endpoint
 * removed meanwhile fails the deliveries queued here once this commits, as it does its other ones.
 */
export async function requeueFailedCallbacks(
  tx: Queryable,
  accountId: string,
  options: { since: string; endpointId: string | undefined; limit: number },
  now: Date,
  timeZone: string,
): Promise<FailedCallbacksResend> {
  const bound = readDateBound(options.since);
  if (bound === undefined) {
    throw new LedgerError(
      'invalid_input',
      `Expected since as an ISO 8601 date or date-time, received ${JSON.stringify(options.since)}.`,
    );
  }
  const since = instantOf(bound, timeZone);
  const { rows: endpoints } = await tx.query<{ id: string }>(
    `SELECT id FROM callback_endpoints
     WHERE account_id = $1 AND enabled AND removed_at IS NULL AND ($2::text IS NULL OR id = $2)
     ORDER BY id FOR SHARE`,
    [accountId, options.endpointId ?? null],
  );
  if (options.endpointId !== undefined && endpoints.length === 0) return { kind: 'endpoint_not_found' };
  if (endpoints.length === 0) return { kind: 'queued', queued: 0, more: false, since };
  const { rows: failed } = await tx.query<{ id: string }>(
    `SELECT id FROM callback_deliveries
     WHERE account_id = $1 AND status = 'failed' AND created_at >= $2::timestamptz
       AND endpoint_id = ANY($3::text[])
     ORDER BY created_at, id LIMIT $4
     FOR UPDATE`,
    [accountId, since.toISOString(), endpoints.map((endpoint) => endpoint.id), options.limit + 1],
  );
  const chosen = failed.slice(0, options.limit).map((row) => row.id);
  if (chosen.length === 0) return { kind: 'queued', queued: 0, more: false, since };
  const { rows: queued } = await tx.query(
    `UPDATE callback_deliveries SET status = 'pending', next_attempt_at = $2::timestamptz,
       updated_at = $2::timestamptz, schedule_start = attempts, lease_owner = NULL, lease_until = NULL
     WHERE id = ANY($1::text[]) AND status = 'failed'
     RETURNING id`,
    [chosen, now.toISOString()],
  );
  return { kind: 'queued', queued: queued.length, more: failed.length > options.limit, since };
}
