// Funding waiting for a second operator (maker-checker). An amount above the approval threshold is not
// credited when asked for: it is recorded, and another admin approves or rejects it (approvals.ts says
// who may). Approval marks the request and credits the channel in one database transaction, so a request
// is credited once or never.

import type { ChannelBalance, ChannelName, Ledger, Queryable } from '@topup/ledger';
import { claimDecision, type ApprovalState, type Decider } from './approvals.js';
import { OperatorError } from './operator-error.js';
import { newId } from './secrets.js';

export type FundingState = ApprovalState;

export interface FundingRequest {
  readonly id: string;
  readonly accountId: string;
  readonly channel: ChannelName;
  readonly amountMinor: bigint;
  readonly requestedBy: string;
  readonly requestedAt: Date;
  readonly state: FundingState;
  readonly decidedBy: string | undefined;
  readonly decidedAt: Date | undefined;
}

interface FundingRow {
  id: string;
  account_id: string;
  channel: ChannelName;
  amount_minor: string | number | bigint;
  requested_by: string;
  requested_at: Date | string;
  state: FundingState;
  decided_by: string | null;
  decided_at: Date | string | null;
}

function requestOf(row: FundingRow): FundingRequest {
  return {
    id: row.id,
    accountId: row.account_id,
    channel: row.channel,
    amountMinor: BigInt(row.amount_minor),
    requestedBy: row.requested_by,
    requestedAt: new Date(row.requested_at),
    state: row.state,
    decidedBy: row.decided_by ?? undefined,
    decidedAt: row.decided_at === null ? undefined : new Date(row.decided_at),
  };
}

export async function requestFunding(
  db: Queryable,
  request: { accountId: string; channel: ChannelName; amountMinor: bigint; by: string },
  now: Date,
): Promise<FundingRequest> {
  const { rows: found } = await db.query('SELECT 1 FROM accounts WHERE id = $1', [request.accountId]);
  if (found.length === 0) throw new OperatorError('not_found', `No account ${request.accountId}.`);
  const { rows } = await db.query<FundingRow>(
    `INSERT INTO funding_requests (id, account_id, channel, amount_minor, requested_by, requested_at)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING *`,
    [newId('fund'), request.accountId, request.channel, request.amountMinor.toString(), request.by, now],
  );
  return requestOf(rows[0] as FundingRow);
}

export async function listFundingRequests(db: Queryable): Promise<FundingRequest[]> {
  const { rows } = await db.query<FundingRow>(
    `(SELECT * FROM funding_requests WHERE state = 'awaiting_approval' ORDER BY requested_at LIMIT 500)
     UNION ALL
     (SELECT * FROM funding_requests WHERE state <> 'awaiting_approval' ORDER BY decided_at DESC LIMIT 50)`,
  );
  return rows.map(requestOf);
}

function claim(db: Queryable, id: string, decider: Decider, decision: 'approved' | 'rejected', now: Date) {
  return claimDecision<FundingRow>(
    db,
    'funding_requests',
    'funding request',
    id,
    decider,
    decision,
    now,
  ).then(requestOf);
}

/**
 * Approves and credits in one transaction, for an approver who did not ask and whose account is older than
 * the request; `also` writes what must commit with it (the audit record).
 */
export async function approveFunding(
  ledger: Ledger,
  db: Queryable,
  id: string,
  approver: Required<Decider>,
  now: Date,
  also: (tx: Queryable, request: FundingRequest) => Promise<void>,
): Promise<{ request: FundingRequest; balance: ChannelBalance }> {
  let approved: FundingRequest | undefined;
  const lookup = await findRequest(db, id);
  const balance = await ledger.fund(lookup.accountId, lookup.channel, lookup.amountMinor, {
    within: async (tx) => {
      approved = await claim(tx, id, approver, 'approved', now);
      await also(tx, approved);
    },
  });
  if (approved === undefined) throw new Error(`Expected funding request ${id} to be claimed.`);
  return { request: approved, balance };
}

// The ledger credits the account and channel it is told; they are read before the transaction and checked
// again by the claim, whose row cannot change after it was made (only its state does).
async function findRequest(db: Queryable, id: string): Promise<FundingRequest> {
  const { rows } = await db.query<FundingRow>('SELECT * FROM funding_requests WHERE id = $1', [id]);
  const row = rows[0];
  if (row === undefined) throw new OperatorError('not_found', `No funding request ${id}.`);
  return requestOf(row);
}

/** Rejects a waiting request, for anyone but the operator who asked, inside the caller's transaction. */
export function rejectFunding(db: Queryable, id: string, by: string, now: Date): Promise<FundingRequest> {
  return claim(db, id, { name: by }, 'rejected', now);
}
