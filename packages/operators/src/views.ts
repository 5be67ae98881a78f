// How operator functions show ledger and console records, as the catalog's answer types say
// (catalog/views.ts): plain JSON with ISO times and amounts as shillings with two decimals, the same to
// the console and to the CLI's --json.

import { formatMinor } from '@topup/ledger';
import type { Account, ChannelBalance, TokenInfo, TransactionLeg, UnappliedResolution } from '@topup/ledger';
import type { AdminRequest } from './admin-requests.js';
import type { FoundAccount } from './account-search.js';
import type { AuditRecord } from './audit-log.js';
import type {
  AccountSummary,
  AccountView,
  AdminRequestView,
  AuditRecordView,
  ChannelBalanceView,
  ConsoleUserView,
  FundingRequestView,
  LegView,
  TokenView,
  UnappliedResult,
} from './catalog/index.js';
import type { FundingRequest } from './funding-requests.js';
import type { ConsoleUser } from './users.js';

export function accountView(account: Account): AccountView {
  return {
    id: account.id,
    name: account.name,
    status: account.status,
    mobile: account.mobile,
    email: account.email,
    agent_name: account.agent_name,
    agent_number: account.agent_number,
    store_number: account.store_number,
    created: account.createdAt.toISOString(),
  };
}

export function accountSummary(account: FoundAccount): AccountSummary {
  return {
    ...accountView(account),
    float_available: formatMinor(account.floatAvailableMinor),
    airtime_available: formatMinor(account.airtimeAvailableMinor),
  };
}

export function channelBalanceView(balance: ChannelBalance): ChannelBalanceView {
  return {
    channel: balance.channel,
    available: formatMinor(balance.availableMinor),
    pending: formatMinor(balance.pendingMinor),
  };
}

export function tokenView(token: TokenInfo): TokenView {
  return {
    id: token.id,
    account: token.accountId,
    prefix: token.prefix,
    mode: token.mode,
    created: token.createdAt.toISOString(),
    revoked: token.revokedAt?.toISOString() ?? '',
  };
}

export function legView(leg: TransactionLeg): LegView {
  return {
    id: leg.id,
    reference: leg.reference,
    kind: leg.kind,
    provider: leg.provider,
    state: leg.state,
    provider_reference: leg.providerReference,
    queries: leg.queries,
    next_query_at: leg.nextQueryAt?.toISOString() ?? null,
    review_since: leg.reviewSince?.toISOString() ?? null,
    review_reason: leg.reviewReason,
    review_evidence: leg.reviewEvidence,
    reviewed_by: leg.reviewedBy,
    reviewed_at: leg.reviewedAt?.toISOString() ?? null,
    review_finding: leg.reviewFinding,
    calls: leg.calls,
    updated: leg.updatedAt.toISOString(),
  };
}

export function unappliedView(entry: UnappliedResolution): UnappliedResult {
  return {
    reference: entry.reference,
    asked: entry.asked,
    state: entry.state,
    provider_code: entry.providerCode,
    reason: entry.reason,
    received: entry.receivedAt.toISOString(),
  };
}

export function userView(user: ConsoleUser): ConsoleUserView {
  return {
    id: user.id,
    email: user.email,
    role: user.role,
    account: user.accountId ?? '',
    has_password: user.hasPassword,
    created: user.createdAt.toISOString(),
    disabled: user.disabledAt?.toISOString() ?? '',
  };
}

export function fundingView(request: FundingRequest): FundingRequestView {
  return {
    id: request.id,
    account: request.accountId,
    channel: request.channel,
    amount: formatMinor(request.amountMinor),
    requested_by: request.requestedBy,
    requested: request.requestedAt.toISOString(),
    state: request.state,
    decided_by: request.decidedBy ?? '',
    decided: request.decidedAt?.toISOString() ?? '',
  };
}

export function adminRequestView(request: AdminRequest): AdminRequestView {
  return {
    id: request.id,
    kind: request.kind,
    email: request.email,
    requested_by: request.requestedBy,
    requested: request.requestedAt.toISOString(),
    state: request.state,
    decided_by: request.decidedBy ?? '',
    decided: request.decidedAt?.toISOString() ?? '',
  };
}

export function auditView(record: AuditRecord): AuditRecordView {
  return {
    id: record.id,
    at: record.at.toISOString(),
    actor: record.actor,
    action: record.action,
    target: record.target,
    before: record.before ?? null,
    after: record.after ?? null,
  };
}
