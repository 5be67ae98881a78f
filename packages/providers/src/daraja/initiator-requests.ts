// The bodies of Daraja's initiator calls an adapter makes: B2B (agent float, experimental: Daraja documents
// no agent-float product, so the command is configurable), Reversal (the refund of a paid STK prompt) and
// Transaction Status (the pull path of initiator calls). Each answers asynchronously to ResultURL, and to
// QueueTimeOutURL when Safaricom's queue gives up, which means "unknown", never "failed".

import { wholeShillings } from './whole-shillings.js';

/**
 * Who makes initiator calls and where their results go.
 *
 * @example
 * ```ts
 * import type { DarajaInitiator } from '@topup/providers';
 *
 * const initiator: DarajaInitiator = {
 *   initiatorName: 'topupapi', securityCredential: 'EnCrYpTeD==', shortCode: '600992',
 *   resultUrl: 'https://topup.example/providers/daraja/t/result', queueTimeoutUrl: 'https://topup.example/providers/daraja/t/timeout',
 * };
 * ```
 */
export interface DarajaInitiator {
  readonly initiatorName: string;
  /** `securityCredential(password, certificate)`. */
  readonly securityCredential: string;
  readonly shortCode: string;
  readonly resultUrl: string;
  readonly queueTimeoutUrl: string;
}

/**
 * A B2B payment from our short code to an agent's store number, the agent number as its account reference.
 *
 * @throws when the amount is not whole shillings.
 *
 * @example
 * ```ts
 * import { b2bPaymentRequest } from '@topup/providers';
 *
 * const body = b2bPaymentRequest({
 *   initiatorName: 'topupapi', securityCredential: 'EnCrYpTeD==', shortCode: '600992',
 *   resultUrl: 'https://topup.example/providers/daraja/t/result', queueTimeoutUrl: 'https://topup.example/providers/daraja/t/timeout',
 *   commandId: 'BusinessBuyGoods', storeNumber: '000000', agentNumber: '123456', amountMinor: 150_000n, remarks: 'Float TX1',
 * });
 * body.Amount; // 1500
 * ```
 */
export function b2bPaymentRequest(
  input: DarajaInitiator & {
    readonly commandId: string;
    readonly storeNumber: string;
    readonly agentNumber: string;
    readonly amountMinor: bigint;
    readonly remarks: string;
  },
): Record<string, string | number> {
  return {
    Initiator: input.initiatorName,
    SecurityCredential: input.securityCredential,
    CommandID: input.commandId,
    SenderIdentifierType: '4',
    // Daraja's own spelling.
    RecieverIdentifierType: '4',
    Amount: wholeShillings(input.amountMinor),
    PartyA: input.shortCode,
    PartyB: input.storeNumber,
    AccountReference: input.agentNumber.slice(0, 13),
    Remarks: input.remarks.slice(0, 100),
    QueueTimeOutURL: input.queueTimeoutUrl,
    ResultURL: input.resultUrl,
  };
}

/**
 * A reversal of a paid STK prompt, named by its M-Pesa receipt, back to the payer. `receiverParty` is the
 * short code the payment was made to (the paybill paid, or a till's store short code); the initiator's
 * `shortCode` when not given.
 *
 * @throws when the amount is not whole shillings.
 *
 * @example
 * ```ts
 * import { reversalRequest } from '@topup/providers';
 *
 * const body = reversalRequest({
 *   initiatorName: 'topupapi', securityCredential: 'EnCrYpTeD==', shortCode: '600992',
 *   resultUrl: 'https://topup.example/providers/daraja/t/result', queueTimeoutUrl: 'https://topup.example/providers/daraja/t/timeout',
 *   receipt: 'NLJ7RT61SV', amountMinor: 5_000n, remarks: 'Airtime not delivered',
 * });
 * body.CommandID; // 'TransactionReversal'
 * ```
 */
export function reversalRequest(
  input: DarajaInitiator & {
    readonly receipt: string;
    readonly amountMinor: bigint;
    readonly remarks: string;
    readonly receiverParty?: string;
  },
): Record<string, string | number> {
  return {
    Initiator: input.initiatorName,
    SecurityCredential: input.securityCredential,
    CommandID: 'TransactionReversal',
    TransactionID: input.receipt,
    Amount: wholeShillings(input.amountMinor),
    ReceiverParty: input.receiverParty ?? input.shortCode,
    RecieverIdentifierType: '11',
    Remarks: input.remarks.slice(0, 100),
    QueueTimeOutURL: input.queueTimeoutUrl,
    ResultURL: input.resultUrl,
  };
}

/**
 * A status query of an initiator call, by its M-Pesa receipt or, when none is known, its conversation id.
 *
 * @example
 * ```ts
 * import { transactionStatusRequest } from '@topup/providers';
 *
 * const body = transactionStatusRequest({
 *   initiatorName: 'topupapi', securityCredential: 'EnCrYpTeD==', shortCode: '600992',
 *   resultUrl: 'https://topup.example/providers/daraja/t/result', queueTimeoutUrl: 'https://topup.example/providers/daraja/t/timeout',
 *   about: { originatorConversationId: '626f6ddf-ab37-4650-b882-b1de92ec9aa4' },
 * });
 * body.CommandID; // 'TransactionStatusQuery'
 * ```
 */
export function transactionStatusRequest(
  input: DarajaInitiator & {
    readonly about: { readonly receipt: string } | { readonly originatorConversationId: string };
  },
): Record<string, string> {
  return {
    Initiator: input.initiatorName,
    SecurityCredential: input.securityCredential,
    CommandID: 'TransactionStatusQuery',
    ...('receipt' in input.about
      ? { TransactionID: input.about.receipt }
      : { OriginalConversationID: input.about.originatorConversationId }),
    PartyA: input.shortCode,
    IdentifierType: '4',
    ResultURL: input.resultUrl,
    QueueTimeOutURL: input.queueTimeoutUrl,
    Remarks: 'Status of a Topup transaction',
  };
}
