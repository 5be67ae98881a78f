// The public API of @topup/envelope: status codes, the data model of success responses, envelope
// builders, the JSON and XML codecs, request encoding and safe request decoding, content negotiation, the
// rule of which characters XML can carry, and the element names of XML's list entries.

export {
  alternateHttpStatus,
  failureMessage,
  statusCodes,
  successMessages,
  type CancellableOperation,
  type FailureCode,
  type FixedMessageCode,
  type StatusCode,
  type StatusCodeEntry,
  type StatusType,
} from './status-codes.js';
export type {
  AddedCallbackEndpointData,
  AgentFloatData,
  AgentParty,
  AirtimeCallbackData,
  AirtimeData,
  SendAirtimeData,
  SentAirtimeData,
  SentAirtimeEntry,
  BalanceData,
  CallbackAttemptView,
  CallbackDeliveriesData,
  CallbackDeliveryView,
  CallbackEndpointsData,
  CallbackEndpointView,
  CallbackFormat,
  Carrier,
  Channel,
  ChannelType,
  Messaging,
  MoneyNetwork,
  Party,
  Payment,
  RemovedCallbackEndpointData,
  ResentCallbackData,
  ResentFailedCallbacksData,
  RotatedCallbackSecretData,
  SentTestCallbackData,
  TestCallbackData,
  Transaction,
  TransactionData,
  FoundTransactionData,
  ListedTransaction,
  StatementData,
  StatementPosting,
  TransactionsData,
  TransactionLegView,
  TransactionState,
  TransactionStatus,
  TransactionType,
} from './data.js';
export {
  callbackResponse,
  cancellationCallback,
  failure,
  success,
  testCallback,
  type CallbackResponse,
  type CancellationCallback,
  type Envelope,
  type FailureEnvelope,
  type FailureOptions,
  type FailureStatus,
  type Status,
  type SuccessEnvelope,
  type SuccessStatus,
  type WireMessage,
} from './envelope.js';
export { EnvelopeDecodeError } from './envelope-decode-error.js';
export { decodeJsonEnvelope, encodeJson } from './json-codec.js';
export { decodeXmlEnvelope, encodeXml } from './xml-codec.js';
export { decodeJsonRequest, decodeXmlRequest, type DecodeResult } from './request-decoding.js';
export {
  encodeJsonRequest,
  encodeXmlRequest,
  type RequestFieldValue,
  type RequestFields,
} from './request-encoding.js';
export { requestLimits, responseLimits, type DecodingLimits } from './limits.js';
export { codePointLabel, firstNonXmlChar } from './xml-text.js';
export { listEntryName } from './wire-arrays.js';
export {
  contentTypeOf,
  negotiateResponse,
  requestFormat,
  responseFormat,
  type ResponseNegotiation,
  type WireFormat,
} from './negotiation.js';
