// What each operator function takes and what its answer's `data` holds, as @topup/operators writes them
// (views.ts): plain JSON, times ISO 8601 in UTC, amounts shillings with two decimals.

import type { Role } from './session-api';

export type AccountStatus = 'active' | 'suspended' | 'closed';
export type TokenMode = 'test' | 'live';
export type FundingChannel = 'float' | 'airtime';

export interface AccountProfile {
  name: string;
  mobile?: string;
  email?: string;
  agent_name?: string;
  agent_number?: string;
  store_number?: string;
}

export interface AccountView extends Required<AccountProfile> {
  id: string;
  status: AccountStatus;
  created: string;
}

export interface TokenView {
  id: string;
  account: string;
  /** The token's first characters, e.g. `tk_test_AbCd`. */
  prefix: string;
  mode: TokenMode;
  created: string;
  /** When it was revoked; "" while it is valid. */
  revoked: string;
}

export interface FundingRequestView {
  id: string;
  account: string;
  channel: FundingChannel;
  amount: string;
  /** The email of the operator who asked. */
  requested_by: string;
  requested: string;
  state: 'awaiting_approval' | 'approved' | 'rejected';
  decided_by: string;
  decided: string;
}

/** The answer of fund_channel: money added at once, or a request waiting for another admin. */
export type FundingOutcome =
  | { state: 'applied'; channel: FundingChannel; available: string }
  | { state: 'awaiting_approval'; request: FundingRequestView };

export interface LedgerReport {
  ok: boolean;
  breaches: string[];
  checked: { ledgerAccounts: number; transfers: number; transactions: number };
}

/** A provider result refused because its transaction was already resolved the other way. */
export interface UnappliedResult {
  reference: string;
  asked: string;
  state: string;
  provider_code: string;
  reason: string;
  received: string;
}

/** A leg still unsettled after the reconciliation window, waiting for an operator. */
export interface ReviewLeg {
  id: string;
  reference: string;
  kind: string;
  provider: string;
  state: string;
  provider_reference: string;
  review_since: string | null;
  updated: string;
}

/** An endpoint whose deliveries of the last 24 hours failed or wait on retries, or that is disabled. */
export interface MonitoredEndpoint {
  endpoint_id: string;
  account: string;
  url: string;
  enabled: boolean;
  disabled_reason: string;
  deliveries_24h: number;
  delivered_24h: number;
  failed_24h: number;
  retrying: number;
  /** Percent of the last 24 hours' deliveries that failed, one decimal: "12.5". */
  failure_rate: string;
  last_error: string;
}

export interface ConsoleUserView {
  id: string;
  email: string;
  role: Role;
  account: string;
  has_password: boolean;
  created: string;
}

export interface AuditRecord {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

interface NextCursor {
  /** The cursor of the next page; "" on the last one. */
  next_cursor: string;
}

export interface OperatorFunctions {
  list_accounts: {
    request: { query?: string; cursor?: string };
    answer: { accounts: AccountView[] } & NextCursor;
  };
  create_account: { request: AccountProfile; answer: { account: AccountView } };
  set_account_status: {
    request: { account: string; status: AccountStatus };
    answer: { account: AccountView };
  };
  list_tokens: { request: { account: string }; answer: { tokens: TokenView[] } };
  issue_token: {
    request: { account: string; mode: TokenMode };
    answer: { token_id: string; token: string; mode: TokenMode };
  };
  revoke_token: { request: { token_id: string }; answer: { token_id: string; revoked: boolean } };
  fund_channel: {
    request: { account: string; channel: FundingChannel; amount: string };
    answer: FundingOutcome;
  };
  list_funding_requests: { request: Record<string, never>; answer: { requests: FundingRequestView[] } };
  approve_funding: {
    request: { request_id: string };
    answer: { request: FundingRequestView; available: string };
  };
  reject_funding: { request: { request_id: string }; answer: { request: FundingRequestView } };
  verify_ledger: { request: Record<string, never>; answer: { report: LedgerReport } };
  list_unapplied_results: { request: { reference?: string }; answer: { results: UnappliedResult[] } };
  list_review_legs: { request: Record<string, never>; answer: { legs: ReviewLeg[] } };
  resolve_leg: {
    request: { leg: string; as: 'succeeded' | 'failed' };
    answer: { settled: boolean; transaction: { reference: string; state: string } };
  };
  delivery_monitor: { request: Record<string, never>; answer: { endpoints: MonitoredEndpoint[] } };
  list_users: { request: Record<string, never>; answer: { users: ConsoleUserView[] } };
  create_user: {
    request: { email: string; role: Role; account?: string };
    answer: { user: ConsoleUserView; url: string };
  };
  user_link: { request: { email: string }; answer: { user: ConsoleUserView; url: string } };
  list_audit: {
    request: { cursor?: string; actor?: string; action?: string };
    answer: { records: AuditRecord[] } & NextCursor;
  };
}

export type OperatorFunctionName = keyof OperatorFunctions;
