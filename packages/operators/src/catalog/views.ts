// What operator functions answer: plain JSON, times ISO 8601 in UTC, amounts shillings with two decimals,
// the same to the console and to the CLI's --json. Callback endpoints and deliveries are shown as the API
// shows them (@topup/envelope).

export type Role = 'admin' | 'support' | 'caller';
export type AccountStatus = 'active' | 'suspended' | 'closed';
export type TokenMode = 'test' | 'live';
export type FundingChannel = 'float' | 'airtime';
export type ApprovalState = 'awaiting_approval' | 'approved' | 'rejected';

export interface AccountView {
  id: string;
  name: string;
  status: AccountStatus;
  mobile: string;
  email: string;
  agent_name: string;
  agent_number: string;
  store_number: string;
  created: string;
}

/** An account in the operators' list: with both channels' available balances. */
export interface AccountSummary extends AccountView {
  float_available: string;
  airtime_available: string;
}

export interface ChannelBalanceView {
  channel: FundingChannel;
  available: string;
  pending: string;
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

/** A token as issued: the token itself is shown this once and never recorded. */
export interface IssuedToken {
  token_id: string;
  token: string;
  mode: TokenMode;
}

export interface FundingRequestView {
  id: string;
  account: string;
  channel: FundingChannel;
  amount: string;
  /** Who asked: a console user's email, or `cli:<system user>`. */
  requested_by: string;
  requested: string;
  state: ApprovalState;
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

/** One leg of a transaction: its provider, its state, and who settled it if an operator did. */
export interface LegView {
  id: string;
  reference: string;
  kind: string;
  provider: string;
  state: string;
  provider_reference: string;
  queries: number;
  next_query_at: string | null;
  /** Since when it waits for an operator; null when it does not. */
  review_since: string | null;
  /** Why it waits for an operator: the contradiction or the silence that sent it to review. */
  review_reason: string;
  /** What each provider answer that sent it to review said. */
  review_evidence: readonly Readonly<Record<string, string>>[];
  reviewed_by: string;
  reviewed_at: string | null;
  /** What the operator who settled it found (a receipt, say). */
  review_finding: string;
  /** Provider calls claimed for it. */
  calls: number;
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
  /** When the user was disabled; "" while they may sign in. */
  disabled: string;
}

/**
 * A request that needs a second admin: a new admin, or a sign-in link for an admin. Approving it makes
 * the user or the link; the link is shown to the approver, once.
 */
export interface AdminRequestView {
  id: string;
  kind: 'create_admin' | 'admin_link';
  email: string;
  requested_by: string;
  requested: string;
  state: ApprovalState;
  decided_by: string;
  decided: string;
}

/** A user and their one-time sign-in link, or the request for one waiting for a second admin. */
export type SignInLinkOutcome =
  | { state: 'created'; user: ConsoleUserView; url: string }
  | { state: 'awaiting_approval'; request: AdminRequestView };

export interface AuditRecordView {
  id: string;
  at: string;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}
