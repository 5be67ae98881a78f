// Public API of @topup/validation: request schemas and parsers for every API function, the spec's
// `3000` error strings, mobile-number normalisation and country/network detection.

export {
  apiFunctions,
  isApiFunctionName,
  keyedOperations,
  operationCatalog,
  requestJsonSchema,
  requestSchemas,
  type ApiFunctionName,
  type OperationEntry,
  type OperationKind,
} from './api-functions.js';
export {
  getBalanceSchema,
  getTransactionSchema,
  parseGetBalance,
  parseGetTransaction,
  type GetBalanceInput,
  type GetBalanceRequest,
  type GetTransactionInput,
  type GetTransactionRequest,
} from './account-requests.js';
export {
  buyAirtimeSchema,
  parseBuyAirtime,
  type BuyAirtimeInput,
  type BuyAirtimeRequest,
} from './buy-airtime.js';
export {
  addCallbackEndpointSchema,
  callbackDeliveryStatuses,
  callbackFormats,
  listCallbackDeliveriesSchema,
  listCallbackEndpointsSchema,
  parseAddCallbackEndpoint,
  parseListCallbackDeliveries,
  parseListCallbackEndpoints,
  parseRemoveCallbackEndpoint,
  parseResendCallback,
  parseResendFailedCallbacks,
  parseRotateCallbackSecret,
  parseSendTestCallback,
  removeCallbackEndpointSchema,
  resendCallbackSchema,
  resendFailedCallbacksSchema,
  rotateCallbackSecretSchema,
  sendTestCallbackSchema,
  type AddCallbackEndpointInput,
  type AddCallbackEndpointRequest,
  type CallbackDeliveryStatus,
  type CallbackFormat,
  type ListCallbackDeliveriesInput,
  type ListCallbackDeliveriesRequest,
  type ListCallbackEndpointsInput,
  type ListCallbackEndpointsRequest,
  type RemoveCallbackEndpointInput,
  type RemoveCallbackEndpointRequest,
  type ResendCallbackInput,
  type ResendCallbackRequest,
  type ResendFailedCallbacksInput,
  type ResendFailedCallbacksRequest,
  type RotateCallbackSecretInput,
  type RotateCallbackSecretRequest,
  type SendTestCallbackInput,
  type SendTestCallbackRequest,
} from './callback-requests.js';
export { readDateBound, type DateBound } from './date-bounds.js';
export {
  detectCountry,
  detectNetwork,
  findCountry,
  isKnownCurrency,
  type CountryInfo,
  type DetectedNetwork,
} from './detection.js';
export { invalid, required } from './error-messages.js';
export {
  defaultPageLimit,
  maxDescriptionLength,
  maxEmailLength,
  maxIdentifierLength,
  maxPageLimit,
  maxTextLength,
  maxUrlLength,
} from './field-schemas.js';
export { maxIdentifierDigits, toDigitString, toPositiveInteger } from './integers.js';
export {
  decodeDeliveryCursor,
  decodeStatementCursor,
  decodeTransactionCursor,
  encodeDeliveryCursor,
  encodeStatementCursor,
  encodeTransactionCursor,
  type DeliveryCursor,
  type StatementCursor,
  type TransactionCursor,
} from './listing-cursors.js';
export {
  channelTypes,
  listStatementSchema,
  listTransactionsSchema,
  parseListStatement,
  parseListTransactions,
  transactionStates,
  transactionTypes,
  type ListStatementInput,
  type ListStatementRequest,
  type ListTransactionsInput,
  type ListTransactionsRequest,
} from './listing-requests.js';
export { normalizeMobile } from './mobile.js';
export { numberingPlans, type NumberingPlan, type Operator } from './network-tables.js';
export {
  agentFloatNetworks,
  carriers,
  moneyNetworks,
  type AgentFloatNetwork,
  type Carrier,
  type MoneyNetwork,
} from './networks.js';
export type { ParseOptions, ValidationResult } from './request-parser.js';
export {
  networksRequiringAgentNumbers,
  parseSendAgentFloat,
  sendAgentFloatSchema,
  type SendAgentFloatInput,
  type SendAgentFloatRequest,
} from './send-agent-float.js';
export {
  maxRecipients,
  parseSendAirtime,
  sendAirtimeSchema,
  type SendAirtimeInput,
  type SendAirtimeRecipient,
  type SendAirtimeRequest,
} from './send-airtime.js';
