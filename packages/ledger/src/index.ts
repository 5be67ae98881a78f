// Public API of @topup/ledger: the store factory and migrations, the ledger (accounts, tokens, money,
// transactions, idempotency, contacts, callback endpoints and outbox, verify) and the wire view of a
// transaction.

export { openStore, type OpenStoreOptions, type Queryable, type Store } from './store.js';
export { applyMigrations, migrate } from './migrate.js';
export type { Migration } from './migrations.js';
export { DataDirLockedError } from './data-dir-lock.js';
export { DataDirOwnerError } from './data-dir-permissions.js';
export {
  createLedger,
  type CancelResult,
  type ChangeOptions,
  type FundOptions,
  type Ledger,
  type LedgerOptions,
} from './ledger.js';
export { LedgerError, type LedgerErrorCode } from './ledger-error.js';
export { isStoreUnavailable } from './store-unavailable.js';
export { createGroupCommit, isolatingFailures } from './group-commit.js';
export type { GroupCommit, GroupCommitOptions, ItemResult } from './group-commit.js';
export type { Account, AccountProfile, AccountStatus } from './accounts.js';
export type { AuthenticatedToken, TokenInfo, TokenMode } from './tokens.js';
export type { ChannelBalance, ChannelName } from './ledger-accounts.js';
export type { IdempotencyClaim, IdempotentSave } from './idempotency.js';
export type {
  LegSettlement,
  RequestOutcome,
  ResolveOutcome,
  SendAirtimeOutcome,
  StoredResponse,
} from './outcomes.js';
export type { TransactionRecord } from './transaction-record.js';
export { legId, parseLegId } from './transaction-legs.js';
export { legRules, legTransition } from './leg-transitions.js';
export type { LegAction, LegEventKind, LegRecord, LegRule, LegSituation } from './leg-transitions.js';
export { evidenceDifferences, SETTLED_AS_FAILED } from './leg-events.js';
export type { LegEvent, LegEventOutcome, LegEvidence } from './leg-events.js';
export type { ReviewReason } from './leg-reviews.js';
export { NOT_DELIVERED_REFUNDED } from './purchase-chain-legs.js';
export type { PurchaseUnderWay } from './purchase-chain-legs.js';
export type { LegKind, LegState, TransactionLeg, UnsettledLeg } from './transaction-legs.js';
export type { Contact } from './contacts.js';
export type { CallbackEndpoint, CallbackFormat, NewCallbackEndpoint } from './callback-endpoints.js';
export type { CallbackEvent } from './callback-payload.js';
export {
  outboxChannel,
  type AttemptOutcome,
  type AttemptRecord,
  type ClaimedDelivery,
  type ClaimOptions,
  type DeliveryAttempt,
  type DeliveryFilter,
  type DeliveryPage,
  type DeliveryRecord,
  type DeliveryStatus,
  type FailedCallbacksResend,
} from './callback-outbox.js';
export type { UnappliedResolution } from './unapplied-resolutions.js';
export type { VerifyReport } from './verify.js';
export type { TransactionFilter, TransactionPage } from './transaction-listing.js';
export type { Posting, StatementFilter, StatementPage } from './statement.js';
export type { TransferPurpose } from './transfers.js';
export { channelView, listedTransaction, sendAirtimeData, transactionData } from './transaction-view.js';
export { callbackDeliveryView, callbackEndpointView, receiverText } from './callback-views.js';
export { formatMinor } from './money.js';
export { randomString } from './ids.js';
export type { WithdrawalSignal } from './withdrawal-signal.js';
