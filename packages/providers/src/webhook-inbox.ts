// The inbox of pushed results. The server stores each webhook call in the request that received it, once
// per provider event id, before it answers the provider; the worker applies what is stored and marks it.
// A call that cannot be read, or names an event the provider does not have, is kept as it came, marked
// with why, for an operator to inspect: nothing a provider sends can crash or block anything.

import type { Queryable } from '@topup/ledger';
import type { WebhookCall, WebhookEvent } from './provider.js';
import { takenInOrder } from './taken-in-order.js';

/**
 * A stored webhook call, as the worker reads it back to apply it.
 *
 * @example
 * ```ts
 * import type { InboxEntry } from '@topup/providers';
 *
 * const describe = (entry: InboxEntry) => `${entry.provider}/${entry.call.event} #${entry.id}`;
 * ```
 */
export interface InboxEntry {
  readonly id: string;
  readonly provider: string;
  readonly call: WebhookCall;
  readonly receivedAt: Date;
}

/**
 * One webhook call to store: its provider, the call as it came, and what the provider's receiver read in
 * it.
 *
 * @example
 * ```ts
 * import type { ReceivedWebhookCall } from '@topup/providers';
 *
 * const garbled: ReceivedWebhookCall = {
 *   provider: 'daraja',
 *   call: { event: 'stk', contentType: 'application/json', body: '{' },
 *   event: { kind: 'garbled', problem: 'the body is not JSON' },
 * };
 * ```
 */
export interface ReceivedWebhookCall {
  readonly provider: string;
  readonly call: WebhookCall;
  readonly event: WebhookEvent;
}

/**
 * Stores webhook calls received at `now` in one statement, in order, each with what its provider's
 * receiver read in it. Answers, call by call, false when its provider's event id was stored already (a
 * repeated call, answered like the first), including by an earlier call of the same batch.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createSandboxSimulator, migrateProviders, storeWebhookCalls } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * const simulator = createSandboxSimulator(store, { delayMs: 0 });
 * const call = { event: 'result', contentType: 'application/json', body: '{}' };
 * const event = simulator.webhooks!.parse(call);
 * await storeWebhookCalls(store, [{ provider: simulator.name, call, event }], new Date()); // [true]
 * ```
 */
export async function storeWebhookCalls(
  db: Queryable,
  calls: readonly ReceivedWebhookCall[],
  now: Date,
): Promise<boolean[]> {
  if (calls.length === 0) return [];
  const eventIdOf = ({ event }: ReceivedWebhookCall) => (event.kind === 'garbled' ? null : event.eventId);
  // Only results wait for the worker; what cannot be applied is settled as it is stored.
  const settledOf = ({ event }: ReceivedWebhookCall) => event.kind !== 'results' && event.kind !== 'reports';
  // Inserted in the calls' order, so the worker, which applies the oldest id first, applies them so too.
  const { rows } = await db.query<{ provider: string; event_id: string }>(
    `INSERT INTO provider_webhook_inbox (provider, event, event_id, content_type, body, problem, received_at,
       applied_at, outcome)
     SELECT u.provider, u.event, u.event_id, u.content_type, u.body, u.problem, $7::timestamptz,
       CASE WHEN u.settled THEN $7::timestamptz END, u.outcome
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $8::boolean[],
       $9::text[]) WITH ORDINALITY AS u (provider, event, event_id, content_type, body, problem, settled,
       outcome, position)
     ORDER BY u.position
     ON CONFLICT (provider, event_id) WHERE event_id IS NOT NULL DO NOTHING
     RETURNING provider, event_id`,
    [
      calls.map((call) => call.provider),
      calls.map(({ call }) => call.event),
      calls.map(eventIdOf),
      calls.map(({ call }) => call.contentType),
      calls.map(({ call }) => call.body),
      calls.map(({ event }) => (event.kind === 'garbled' ? event.problem : '')),
      now.toISOString(),
      calls.map(settledOf),
      calls.map(({ event }) =>
        event.kind === 'ignored' ? `ignored: ${event.why}` : event.kind === 'garbled' ? 'garbled' : '',
      ),
    ],
  );
  // A call without an event id cannot conflict, so it was stored; one with an id was if its id came
  // back, and only the first of the batch's calls with that id.
  const stored = takenInOrder(rows.map((row) => [row.provider, row.event_id]));
  return calls.map((call) => {
    const eventId = eventIdOf(call);
    return eventId === null || stored([call.provider, eventId]);
  });
}

/**
 * Stores a webhook call with what its provider's receiver read in it. Returns false when the provider's
 * event id was stored already (a repeated call), which is answered like the first.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createSandboxSimulator, migrateProviders, storeWebhookCall } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * const simulator = createSandboxSimulator(store, { delayMs: 0 });
 * const call = { event: 'result', contentType: 'application/json', body: '{}' };
 * const event = simulator.webhooks!.parse(call);
 * await storeWebhookCall(store, simulator.name, call, event, new Date()); // true: kept, as garbled
 * ```
 */
export async function storeWebhookCall(
  db: Queryable,
  provider: string,
  call: WebhookCall,
  event: WebhookEvent,
  now: Date,
): Promise<boolean> {
  const [stored] = await storeWebhookCalls(db, [{ provider, call, event }], now);
  return stored === true;
}

/**
 * How many of a provider's stored calls wait to be applied, counted up to `atMost` and no further, so the
 * count costs the same however full the inbox is: the server refuses calls while it reaches its bound.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { migrateProviders, waitingWebhookCalls } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * await waitingWebhookCalls(store, 'daraja', 100_000); // 0
 * ```
 */
export async function waitingWebhookCalls(db: Queryable, provider: string, atMost: number): Promise<number> {
  const { rows } = await db.query<{ waiting: number }>(
    `SELECT count(*)::int AS waiting FROM (
       SELECT 1 FROM provider_webhook_inbox WHERE applied_at IS NULL AND provider = $1 LIMIT $2
     ) AS waiting`,
    [provider, atMost],
  );
  return rows[0]?.waiting ?? 0;
}

/**
 * Stored calls not yet applied, oldest first, leaving out those deferred past `now`.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { migrateProviders, unappliedWebhookCalls } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * for (const entry of await unappliedWebhookCalls(store, 100)) console.log(entry.id, entry.call.event);
 * ```
 */
export async function unappliedWebhookCalls(
  db: Queryable,
  limit: number,
  now: Date = new Date(),
): Promise<InboxEntry[]> {
  const { rows } = await db.query<{
    id: string;
    provider: string;
    event: string;
    content_type: string;
    body: string;
    received_at: Date;
  }>(
    `SELECT id::text, provider, event, content_type, body, received_at FROM provider_webhook_inbox
     WHERE applied_at IS NULL AND (retry_at IS NULL OR retry_at <= $2::timestamptz) ORDER BY id LIMIT $1`,
    [limit, now.toISOString()],
  );
  return rows.map((row) => ({
    id: row.id,
    provider: row.provider,
    call: { event: row.event, contentType: row.content_type, body: row.body },
    receivedAt: row.received_at,
  }));
}

/**
 * Marks stored calls applied, each with what came of it (e.g. `resolved`, `already_resolved`).
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { markWebhookCallsApplied, migrateProviders } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * await markWebhookCallsApplied(store, [{ id: '1', outcome: 'resolved' }], new Date());
 * ```
 */
export async function markWebhookCallsApplied(
  db: Queryable,
  applied: readonly { id: string; outcome: string }[],
  now: Date,
): Promise<void> {
  if (applied.length === 0) return;
  await db.query(
    `UPDATE provider_webhook_inbox i SET applied_at = $3::timestamptz, outcome = u.outcome
     FROM unnest($1::bigint[], $2::text[]) AS u (id, outcome)
     WHERE i.id = u.id AND i.applied_at IS NULL`,
    [applied.map((entry) => entry.id), applied.map((entry) => entry.outcome), now.toISOString()],
  );
}

/**
 * Leaves stored calls unapplied until `retryAt`: calls that wait for a provider id to be recorded, so they
 * do not stand in front of newer calls meanwhile.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { deferWebhookCalls, migrateProviders } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * await migrateProviders(store);
 * await deferWebhookCalls(store, ['1'], new Date(Date.now() + 1_000));
 * ```
 */
export async function deferWebhookCalls(db: Queryable, ids: readonly string[], retryAt: Date): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    `UPDATE provider_webhook_inbox SET retry_at = $2::timestamptz
     WHERE id = ANY($1::bigint[]) AND applied_at IS NULL`,
    [ids, retryAt.toISOString()],
  );
}
