// Public API of @topup/providers: the interface every money network and airtime carrier sits behind, the
// routes from networks to providers, the sandbox simulator that plays all of them, the inbox of results
// providers push, the access token providers share across processes, and the M-Pesa Daraja and Africa's
// Talking airtime protocols.

export type {
  LegOrder,
  Provider,
  ProviderReport,
  ProviderResult,
  ProviderStatus,
  ResultEvidence,
  SubmitResult,
  WebhookCall,
  WebhookEvent,
  WebhookReceiver,
  WebhookReply,
} from './provider.js';
export { createSandboxSimulator } from './sandbox-simulator.js';
export type { SandboxSimulatorOptions } from './sandbox-simulator.js';
export { sandboxOutcome } from './sandbox-outcomes.js';
export type { SandboxOutcome } from './sandbox-outcomes.js';
export { migrateProviders, providerTablesReady } from './provider-migrations.js';
export {
  deferWebhookCalls,
  markWebhookCallsApplied,
  storeWebhookCall,
  storeWebhookCalls,
  unappliedWebhookCalls,
  waitingWebhookCalls,
} from './webhook-inbox.js';
export type { InboxEntry, ReceivedWebhookCall } from './webhook-inbox.js';
export {
  attemptRecorded,
  claimCall,
  claimCalls,
  forgetAttempt,
  recordAttempt,
  recordSubmissionId,
  recordSubmissionIds,
  recordedSubmissionIds,
  submissionIdOf,
} from './submission-ids.js';
export type { CallClaim, SubmissionId } from './submission-ids.js';
export { firstLegNetwork, routeEveryNetworkTo, routeNetworks, unservedNetwork } from './provider-routes.js';
export type { ProviderRoutes } from './provider-routes.js';
export { createSharedAccessToken } from './shared-access-token.js';
export type { IssuedToken, SharedAccessToken, SharedAccessTokenOptions } from './shared-access-token.js';
export { callDaraja, issueDarajaToken } from './daraja/daraja-client.js';
export type { DarajaAnswer, DarajaEndpoint } from './daraja/daraja-client.js';
export { darajaErrorOf, isStillProcessing, isTokenRejected } from './daraja/daraja-error.js';
export type { DarajaError } from './daraja/daraja-error.js';
export { darajaTimestamp, stkCredentials, stkPassword } from './daraja/daraja-timestamp.js';
export { parseInitiatorResult } from './daraja/initiator-result.js';
export type { InitiatorResult, InitiatorResultReading } from './daraja/initiator-result.js';
export { securityCredential } from './daraja/security-credential.js';
export { parseStkCallback } from './daraja/stk-callback.js';
export type { StkCallback, StkCallbackReading } from './daraja/stk-callback.js';
export { stkPushRequest } from './daraja/stk-push-request.js';
export type { StkPushInput } from './daraja/stk-push-request.js';
export { STK_RESULT_CODES, stkOutcome } from './daraja/stk-result-codes.js';
export type { StkOutcome, StkResultCode } from './daraja/stk-result-codes.js';
export { INITIATOR_RESULT_CODES, initiatorOutcome } from './daraja/initiator-result-codes.js';
export type { InitiatorOutcome, InitiatorResultCode } from './daraja/initiator-result-codes.js';
export { readStkQueryAnswer, stkQueryRequest } from './daraja/stk-query.js';
export type { StkQueryStatus } from './daraja/stk-query.js';
export { airtimeSendRequest, readAirtimeSendAnswer } from './africastalking/airtime-send.js';
export type { AirtimeRecipientStatus, AirtimeSendProblem } from './africastalking/airtime-send.js';
export { airtimeQueryRequest, readAirtimeQueryAnswer } from './africastalking/airtime-query.js';
export type { AirtimeQueryStatus } from './africastalking/airtime-query.js';
export { parseAirtimeStatusCallback } from './africastalking/airtime-status-callback.js';
export type { AirtimeStatus } from './africastalking/airtime-status-callback.js';
export { callAfricasTalking } from './africastalking/africastalking-client.js';
export type {
  AfricasTalkingAnswer,
  AfricasTalkingCall,
  AfricasTalkingEndpoint,
} from './africastalking/africastalking-client.js';
export { createAfricasTalkingProvider } from './africastalking/africastalking-provider.js';
export type {
  AfricasTalkingProviderOptions,
  AfricasTalkingRefusal,
  AfricasTalkingSend,
} from './africastalking/africastalking-provider.js';
export {
  AFRICASTALKING_UNDELIVERED,
  africastalkingWebhooks,
} from './africastalking/africastalking-webhooks.js';
export { b2bPaymentRequest, reversalRequest, transactionStatusRequest } from './daraja/initiator-requests.js';
export type { DarajaInitiator } from './daraja/initiator-requests.js';
export { createDarajaProvider } from './daraja/daraja-provider.js';
export type { DarajaProviderOptions } from './daraja/daraja-provider.js';
export { DARAJA_DECLINED, darajaWebhooks } from './daraja/daraja-webhooks.js';
