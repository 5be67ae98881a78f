// Requests that need a second admin besides funding: a new admin, and a sign-in link for an existing
// admin (with it, its holder sets that admin's password). Either would otherwise let one admin become
// two. A request is decided once (approvals.ts says by whom); approving one makes the user or the link in
// the same transaction as the decision.

import type { Queryable } from '@topup/ledger';
import { claimDecision, type ApprovalState, type Decider } from './approvals.js';
import { newId } from './secrets.js';
import { normalisedEmail } from './users.js';

export type AdminRequestKind = 'create_admin' | 'admin_link';

export interface AdminRequest {
  readonly id: string;
  readonly kind: AdminRequestKind;
  readonly email: string;
  readonly requestedBy: string;
  readonly requestedAt: Date;
  readonly state: ApprovalState;
  readonly decidedBy: string | undefined;
  readonly decidedAt: Date | undefined;
}

interface AdminRequestRow {
  id: string;
  kind: AdminRequestKind;
  email: string;
  requested_by: string;
  requested_at: Date | string;
  state: ApprovalState;
  decided_by: string | null;
  decided_at: Date | string | null;
}

function requestOf(row: AdminRequestRow): AdminRequest {
  return {
    id: row.id,
    kind: row.kind,
    email: row.email,
    requestedBy: row.requested_by,
    requestedAt: new Date(row.requested_at),
    state: row.state,
    decidedBy: row.decided_by ?? undefined,
    decidedAt: row.decided_at === null ? undefined : new Date(row.decided_at),
  };
}

export async function requestAdminChange(
  db: Queryable,
  request: { kind: AdminRequestKind; email: string; by: string },
  now: Date,
): Promise<AdminRequest> {
  const { rows } = await db.query<AdminRequestRow>(
    `INSERT INTO admin_requests (id, kind, email, requested_by, requested_at) VALUES ($1, $2, $3, $4, $5)
     RETURNING *`,
    [newId('adm'), request.kind, normalisedEmail(request.email), request.by, now],
  );
  return requestOf(rows[0] as AdminRequestRow);
}

export async function listAdminRequests(db: Queryable): Promise<AdminRequest[]> {
  const { rows } = await db.query<AdminRequestRow>(
    `(SELECT * FROM admin_requests WHERE state = 'awaiting_approval' ORDER BY requested_at LIMIT 500)
     UNION ALL
     (SELECT * FROM admin_requests WHERE state <> 'awaiting_approval' ORDER BY decided_at DESC LIMIT 50)`,
  );
  return rows.map(requestOf);
}

/** Decides a waiting request inside the caller's transaction; see `claimDecision` for who may. */
export async function decideAdminRequest(
  db: Queryable,
  id: string,
  decider: Decider,
  decision: 'approved' | 'rejected',
  now: Date,
): Promise<AdminRequest> {
  return requestOf(
    await claimDecision<AdminRequestRow>(db, 'admin_requests', 'admin request', id, decider, decision, now),
  );
}
