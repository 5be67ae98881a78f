// The two-person rule's one step: claiming a waiting request for a decision. A request for funding, a new
// admin or an admin's sign-in link is decided once, never by the operator who asked; and approved only
// by a console admin whose account existed before the request, so an admin cannot make a second account
// of their own and approve with it what they asked for.

import type { Queryable } from '@topup/ledger';
import { OperatorError } from './operator-error.js';

export type ApprovalState = 'awaiting_approval' | 'approved' | 'rejected';

/** Who decides: the actor's name and, for an approval, when their console account was made. */
export interface Decider {
  readonly name: string;
  readonly since?: Date;
}

interface WaitingRow {
  requested_by: string;
  requested_at: Date | string;
  state: ApprovalState;
}

/**
 * Marks the waiting request `id` of `table` decided by `decider`, inside the caller's transaction, and
 * returns its row; the conflict says why it cannot be (decided already, the decider's own, or asked for
 * before the decider's account existed).
 */
export async function claimDecision<R extends WaitingRow>(
  db: Queryable,
  table: 'funding_requests' | 'admin_requests',
  what: string,
  id: string,
  decider: Decider,
  decision: Exclude<ApprovalState, 'awaiting_approval'>,
  now: Date,
): Promise<R> {
  const { rows } = await db.query<R>(
    `UPDATE ${table} SET state = $3, decided_by = $2, decided_at = $4
     WHERE id = $1 AND state = 'awaiting_approval' AND requested_by <> $2
       AND ($5::timestamptz IS NULL OR requested_at > $5::timestamptz)
     RETURNING *`,
    [id, decider.name, decision, now, decider.since ?? null],
  );
  const claimed = rows[0];
  if (claimed !== undefined) return claimed;
  const { rows: existing } = await db.query<R>(`SELECT * FROM ${table} WHERE id = $1`, [id]);
  const request = existing[0];
  if (request === undefined) throw new OperatorError('not_found', `No ${what} ${id}.`);
  if (request.state !== 'awaiting_approval')
    throw new OperatorError('conflict', `${capitalised(what)} ${id} was already ${request.state}.`);
  if (request.requested_by === decider.name)
    throw new OperatorError(
      'conflict',
      `${capitalised(what)} ${id} was made by ${decider.name}; another admin must decide it.`,
    );
  throw new OperatorError(
    'conflict',
    `${capitalised(what)} ${id} was made before your account existed; an admin whose account is older must approve it.`,
  );
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
