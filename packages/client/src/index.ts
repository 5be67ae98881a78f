// The public API of @topup/client: the client and its options, the results and errors of its calls,
// and the helpers a callback receiver needs.

export { createClient, type TopupClient } from './create-client.js';
export type { CallOptions, ClientOptions, OperationOptions, RetryOptions } from './client-options.js';
export type { OperationResult, ResponseDetails, TopupResult } from './results.js';
// The data of the callback functions' results, re-exported so existing imports from the client keep working.
export type {
  AddedCallbackEndpointData,
  CallbackDeliveriesData,
  CallbackEndpointsData,
  RemovedCallbackEndpointData,
  ResentCallbackData,
  ResentFailedCallbacksData,
  RotatedCallbackSecretData,
  SentTestCallbackData,
} from '@topup/envelope';
// The data of the listing functions' results.
export type { ListedTransaction, StatementData, StatementPosting, TransactionsData } from '@topup/envelope';
export {
  GatewayError,
  InsufficientBalanceError,
  InvalidAccountError,
  InvalidApiRequestError,
  InvalidParametersError,
  InvalidRequestMethodError,
  InvalidTokenError,
  RequestNotAllowedError,
  TopupApiError,
  TransactionCancelledError,
  type ApiErrorDetails,
} from './api-errors.js';
export { TopupTransportError, type TransportErrorDetails } from './transport-error.js';
export { TransactionWaitError, type TransactionWaitReason } from './transaction-wait-error.js';
export type { WaitOptions } from './wait-for-transaction.js';
export {
  parseCallback,
  type CallbackData,
  type CallbackEvent,
  type CancelledCallbackEvent,
  type CompletedCallbackEvent,
  type ParseCallbackOptions,
  type TestCallbackEvent,
} from './parse-callback.js';
export { CallbackVerificationError, type CallbackRefusalReason } from './callback-verification-error.js';
export { callbackAnswer, type CallbackAnswer } from './callback-answer.js';
export {
  createCallbackDeduplicator,
  type CallbackDeduplicator,
  type CallbackDeduplicatorOptions,
} from './callback-deduplicator.js';
// A callback receiver reads the raw body, bounded, before it verifies it: the reader of @topup/signing.
export {
  CallbackBodyTooLargeError,
  DEFAULT_MAX_BODY_BYTES,
  readNodeBody,
  type NodeRequestLike,
} from '@topup/signing';
