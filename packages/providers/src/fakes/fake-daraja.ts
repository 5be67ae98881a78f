// A fake of Safaricom's Daraja over real HTTP on loopback, written from Daraja's documentation, for tests
// and `pnpm start:fakes`. It issues client-credentials tokens (each new one invalidating the one before,
// as Daraja's do), refuses calls without the current token as Daraja does, and checks each call as Daraja
// would before acknowledging it, answering Daraja's `400.002.02` for the first problem found.
//
// STK Push: the password against the short code, passkey and timestamp, the amount's range, the lengths of
// AccountReference and TransactionDesc. Each prompt then ends as the payer's number scripts it
// (fake-stk-scripts.ts), its callback POSTed to CallBackURL in Daraja's shape (or a contradicting one:
// another Amount or PhoneNumber), and STK Query answers "being processed" until it has ended (and, as
// scripted, an undocumented code or "being processed" once more before the result).
//
// B2B (agent float), Reversal (the refund of a paid prompt) and Transaction Status: the initiator's name,
// the command, the identifier types, the amount, the short code and the URLs. B2B is paid from the
// disbursement short code by its own initiator (`b2b`, the collection ones by default), and a status query
// is answered for either short code by its own initiator. A wrong SecurityCredential is acknowledged all
// the same and ends in ResultCode 2001, as on Daraja, where M-Pesa behind the gateway reads it. Each B2B
// then ends as its PartyB's last four digits script it (fake-b2b-scripts.ts), its Result POSTed to
// ResultURL in the shapes Daraja really sends (numbers, a bare object for a list, placeholder receipts on
// failure) so tolerant readers meet them. A reversal names the M-Pesa receipt of a paid prompt the fake
// issued and the short code that prompt paid: the first reversal of it ends 0 with a receipt of its own, a
// second R000001 (already reversed), one naming a receipt the fake never issued, or another short code,
// R000002. Transaction Status reports what the fake holds of a B2B or a reversal, since it is how an
// adapter recovers a lost Result. Every request and every POST is recorded, so a test can see both sides.

import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { darajaTimestamp, stkPassword } from '../daraja/daraja-timestamp.js';
import { objectOf, textOf } from '../tolerant-json.js';
import { b2bScriptFor, type B2bScript } from './fake-b2b-scripts.js';
import { stkScriptFor, type StkScript } from './fake-stk-scripts.js';
import { passwordInCredential } from './security-credential-check.js';
import { createFakeTimers } from './fake-timers.js';

/**
 * The app, short code and initiator the fake answers as, and how quickly things end.
 *
 * @example
 * ```ts
 * import { startFakeDaraja, type FakeDarajaOptions } from '@topup/providers/fakes';
 *
 * const options: FakeDarajaOptions = {
 *   consumerKey: 'key', consumerSecret: 'secret', shortCode: '600992', passkey: 'passkey',
 *   initiatorName: 'topupapi', initiatorPassword: 'initiator password', promptMs: 50,
 * };
 * const fake = await startFakeDaraja(options);
 * ```
 */
export interface FakeDarajaOptions {
  readonly consumerKey: string;
  readonly consumerSecret: string;
  readonly shortCode: string;
  readonly passkey: string;
  /** How long a prompt stays open before it ends; a late callback comes ten times later. Default 200 ms. */
  readonly promptMs?: number;
  /** The `Initiator` initiator calls must name. Default 'testapi', as in Daraja's sandbox. */
  readonly initiatorName?: string;
  /** What a SecurityCredential must decrypt to. Default 'Safaricom999!*!', as in Daraja's sandbox. */
  readonly initiatorPassword?: string;
  /**
   * The disbursement short code B2B payments are made from, and its own initiator, as real merchants
   * have; by default the short code and initiator above.
   */
  readonly b2b?: {
    readonly shortCode: string;
    readonly initiatorName: string;
    readonly initiatorPassword: string;
  };
  /**
   * The key SecurityCredentials are decrypted with. Default the fake's own, whose certificate is
   * `fixtures/fake-daraja-certificate.pem`.
   */
  readonly privateKeyPem?: string;
  /** How long an initiator call takes before its Result is POSTed; a late one ten times longer. Default promptMs. */
  readonly resultDelayMs?: number;
  /** The loopback port to listen on; default any free one. */
  readonly port?: number;
}

/**
 * A request the fake received, as it read it.
 *
 * @example
 * ```ts
 * import type { FakeDarajaRequest } from '@topup/providers/fakes';
 *
 * const sent = (requests: readonly FakeDarajaRequest[]) => requests.filter((request) => request.path.startsWith('/mpesa/b2b/'));
 * ```
 */
export interface FakeDarajaRequest {
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

/**
 * A payment prompt (STK Push) the fake took, as it holds it: a request refused (a stale token, a wrong
 * password) made none.
 *
 * @example
 * ```ts
 * import type { FakeStkPrompt } from '@topup/providers/fakes';
 *
 * const paid = (prompt: FakeStkPrompt) => prompt.ended && String(prompt.resultCode) === '0';
 * ```
 */
export interface FakeStkPrompt {
  readonly checkoutRequestId: string;
  readonly merchantRequestId: string;
  /** The payer's number, as PhoneNumber named it. */
  readonly phone: string;
  /** Whole shillings. */
  readonly amount: number;
  /** M-Pesa's receipt, once it has ended paid. */
  readonly receipt: string | undefined;
  readonly ended: boolean;
  /** Its result code, once it has ended. */
  readonly resultCode: number | string | undefined;
}

/**
 * A B2B payment as the fake holds it.
 *
 * @example
 * ```ts
 * import type { FakeB2bPayment } from '@topup/providers/fakes';
 *
 * const paid = (payment: FakeB2bPayment) => payment.ended && String(payment.resultCode) === '0';
 * ```
 */
export interface FakeB2bPayment {
  readonly conversationId: string;
  readonly originatorConversationId: string;
  readonly partyB: string;
  /** Whole shillings. */
  readonly amount: number;
  /** M-Pesa's receipt, once it has ended paid. */
  readonly receipt: string | undefined;
  readonly ended: boolean;
  /** The Result's code, once it has ended. */
  readonly resultCode: number | string | undefined;
}

/**
 * A reversal as the fake holds it: the receipt it reversed (or was asked to), and how it ended.
 *
 * @example
 * ```ts
 * import type { FakeReversal } from '@topup/providers/fakes';
 *
 * const refunded = (reversal: FakeReversal) => reversal.ended && String(reversal.resultCode) === '0';
 * ```
 */
export interface FakeReversal {
  readonly conversationId: string;
  readonly originatorConversationId: string;
  /** The TransactionID it named: the receipt of the payment to reverse. */
  readonly receipt: string;
  /** Whole shillings. */
  readonly amount: number;
  /** M-Pesa's receipt of the reversal itself, once it has ended done. */
  readonly reversalReceipt: string | undefined;
  readonly ended: boolean;
  /** The Result's code, once it has ended: 0, R000001, R000002 or 2001. */
  readonly resultCode: number | string | undefined;
}

/**
 * A running fake: where it is, and what it has received, sent and holds.
 *
 * @example
 * ```ts
 * import { startFakeDaraja, type FakeDaraja } from '@topup/providers/fakes';
 *
 * const fake: FakeDaraja = await startFakeDaraja({ consumerKey: 'key', consumerSecret: 'secret', shortCode: '600992', passkey: 'passkey' });
 * process.env.DARAJA_BASE_URL = fake.url;
 * // … run the adapter against it, then:
 * fake.b2bPayments.filter((payment) => !payment.ended); // what is still open
 * await fake.close();
 * ```
 */
export interface FakeDaraja {
  /** `http://127.0.0.1:<port>`, for DARAJA_BASE_URL. */
  readonly url: string;
  /** Every request received, oldest first. */
  readonly requests: readonly FakeDarajaRequest[];
  /** How many tokens it has issued. */
  readonly tokensIssued: number;
  /**
   * The STK callbacks and initiator Results it has POSTed, oldest first, with the status each was
   * answered (0 when none came).
   */
  readonly callbacks: readonly { readonly url: string; readonly body: unknown; readonly status: number }[];
  /** The payment prompts it took, oldest first, as they stand at this read. */
  readonly stkPrompts: readonly FakeStkPrompt[];
  /** The B2B payments it holds, oldest first, as they stand at this read. */
  readonly b2bPayments: readonly FakeB2bPayment[];
  /** The reversals it holds, oldest first, as they stand at this read. */
  readonly reversals: readonly FakeReversal[];
  /** Issues a token as another process would, invalidating the current one. */
  issueTokenElsewhere(): void;
  close(): Promise<void>;
}

function json(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(JSON.stringify(body));
}

function requestId(): string {
  return `${String(randomBytes(2).readUInt16BE())}-${String(randomBytes(4).readUInt32BE())}-1`;
}

function darajaError(
  response: ServerResponse,
  status: number,
  errorCode: string,
  errorMessage: string,
): void {
  json(response, status, { requestId: requestId(), errorCode, errorMessage });
}

async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}

/** The first problem Daraja would find with an STK Push request, or undefined. */
function stkPushProblem(
  body: Readonly<Record<string, unknown>>,
  options: FakeDarajaOptions,
): string | undefined {
  const text = (name: string) => (typeof body[name] === 'string' ? body[name] : undefined);
  const timestamp = text('Timestamp') ?? '';
  if (String(body['BusinessShortCode']) !== options.shortCode) return 'Invalid BusinessShortCode';
  if (!/^\d{14}$/.test(timestamp)) return 'Invalid Timestamp';
  if (text('Password') !== stkPassword(options.shortCode, options.passkey, timestamp))
    return 'Wrong credentials';
  const type = text('TransactionType');
  if (type !== 'CustomerPayBillOnline' && type !== 'CustomerBuyGoodsOnline') return 'Invalid TransactionType';
  const amount = Number(body['Amount']);
  if (!Number.isInteger(amount) || amount < 1 || amount > 250_000) return 'Invalid Amount';
  const phone = String(body['PhoneNumber']);
  if (!/^2547\d{8}$|^2541\d{8}$/.test(phone) || String(body['PartyA']) !== phone)
    return 'Invalid PhoneNumber';
  if (!/^https?:\/\//.test(text('CallBackURL') ?? '')) return 'Invalid CallBackURL';
  if ((text('AccountReference') ?? '').length > 12) return 'Invalid AccountReference';
  if ((text('TransactionDesc') ?? '').length > 13) return 'Invalid TransactionDesc';
  return undefined;
}

interface Prompt {
  readonly merchantRequestId: string;
  readonly checkoutRequestId: string;
  readonly script: StkScript;
  readonly amount: number;
  readonly phone: number;
  readonly callbackUrl: string;
  /** The short code the payer pays: the paybill (PartyB), or for a till the store's BusinessShortCode. */
  readonly paidShortCode: string;
  ended: boolean;
  /** Whether STK Query has answered the script's `firstQuery` already. */
  firstQueryAnswered: boolean;
  /** M-Pesa's receipt, once it has ended paid: the callback carries it and a reversal names it. */
  receipt: string | undefined;
}

/** The callback body Daraja POSTs when a prompt ends: numbers where Daraja sends numbers. */
function stkCallbackBody(prompt: Prompt): unknown {
  const paid = prompt.script.resultCode === 0;
  return {
    Body: {
      stkCallback: {
        MerchantRequestID: prompt.merchantRequestId,
        CheckoutRequestID: prompt.checkoutRequestId,
        ResultCode: prompt.script.resultCode,
        ResultDesc: paid ? 'The service request is processed successfully.' : 'Request cancelled by user',
        ...(paid
          ? {
              CallbackMetadata: {
                Item: [
                  { Name: 'Amount', Value: prompt.script.callbackAmount ?? prompt.amount },
                  { Name: 'MpesaReceiptNumber', Value: prompt.receipt ?? '' },
                  { Name: 'Balance' },
                  { Name: 'TransactionDate', Value: 20261124102115 },
                  { Name: 'PhoneNumber', Value: prompt.script.callbackPhone ?? prompt.phone },
                ],
              },
            }
          : {}),
      },
    },
  };
}

/** A new receipt, in M-Pesa's ten characters. */
function newReceipt(): string {
  return `TK${randomBytes(4).toString('hex').toUpperCase()}`;
}

/** What M-Pesa sends as the TransactionID of a call that moved no money. */
const placeholderReceipt = '0000000000';

/** Fixed, so Results read the same from run to run; Daraja sends YYYYMMDDHHmmss as a number. */
const completedTime = 20261124102115;

interface Conversation {
  readonly originatorConversationId: string;
  readonly conversationId: string;
}

/** An initiator call's ids, in the shapes Daraja gives them. */
function newConversation(): Conversation {
  const digits = (count: number) => String(randomBytes(4).readUInt32BE() % 10 ** count).padStart(count, '0');
  return {
    originatorConversationId: `${digits(5)}-${digits(8)}-1`,
    conversationId: `AG_${darajaTimestamp(new Date()).slice(0, 8)}_${randomBytes(10).toString('hex')}`,
  };
}

const acceptedAck = (conversation: Conversation) => ({
  OriginatorConversationID: conversation.originatorConversationId,
  ConversationID: conversation.conversationId,
  ResponseCode: '0',
  ResponseDescription: 'Accept the service request successfully.',
});

/** How a wrong SecurityCredential ends, whatever PartyB scripts: M-Pesa reads the credential first. */
const invalidInitiator: B2bScript = {
  resultCode: 2001,
  resultDesc: 'The initiator information is invalid.',
  delivery: 'once',
};

const succeeded = (resultCode: number | string) => String(resultCode) === '0';

/** Whether a B2B moved the money: as scripted, or else when its Result says 0. */
const madePayment = (script: B2bScript) => script.madePayment ?? succeeded(script.resultCode);

const isUrl = (value: string | undefined) => /^https?:\/\/\S+$/.test(value ?? '');

/** Amount as Daraja takes it: whole shillings, as a number or a string of digits. */
function wholeAmount(value: unknown): number | undefined {
  const amount = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof amount === 'number' && Number.isInteger(amount) && amount >= 1 && amount <= 250_000
    ? amount
    : undefined;
}

interface B2bRequest {
  readonly partyB: string;
  readonly amount: number;
  readonly accountReference: string;
  readonly resultUrl: string;
}

/** A B2B request as Daraja's gateway reads it, or the first problem it would find. */
function readB2bRequest(
  body: Readonly<Record<string, unknown>>,
  initiatorName: string,
  shortCode: string,
): B2bRequest | string {
  const text = (name: string) => textOf(body[name]);
  if (text('Initiator') !== initiatorName) return 'Invalid Initiator';
  const command = text('CommandID');
  if (command !== 'BusinessBuyGoods' && command !== 'BusinessPayBill' && command !== 'BusinessPayToBulk')
    return 'Invalid CommandID';
  if (text('SenderIdentifierType') !== '4') return 'Invalid SenderIdentifierType';
  if (text('RecieverIdentifierType') !== '4') return 'Invalid RecieverIdentifierType';
  const amount = wholeAmount(body['Amount']);
  if (amount === undefined) return 'Invalid Amount';
  if (text('PartyA') !== shortCode) return 'Invalid PartyA';
  const partyB = text('PartyB') ?? '';
  if (!/^\d+$/.test(partyB)) return 'Invalid PartyB';
  const accountReference = text('AccountReference') ?? '';
  if (accountReference.length > 13) return 'Invalid AccountReference';
  if ((text('Remarks') ?? '').length > 100) return 'Invalid Remarks';
  const resultUrl = text('ResultURL');
  if (resultUrl === undefined || !isUrl(resultUrl)) return 'Invalid ResultURL';
  if (!isUrl(text('QueueTimeOutURL'))) return 'Invalid QueueTimeOutURL';
  return { partyB, amount, accountReference, resultUrl };
}

interface StatusQuery {
  readonly about: { readonly receipt: string } | { readonly conversationId: string };
  readonly resultUrl: string;
}

/** A Transaction Status query as Daraja's gateway reads it, or the first problem it would find. */
function readStatusQuery(
  body: Readonly<Record<string, unknown>>,
  initiatorName: string,
  shortCode: string,
): StatusQuery | string {
  const text = (name: string) => textOf(body[name]);
  if (text('Initiator') !== initiatorName) return 'Invalid Initiator';
  if (text('CommandID') !== 'TransactionStatusQuery') return 'Invalid CommandID';
  const receipt = text('TransactionID') ?? '';
  const conversationId = text('OriginalConversationID') ?? '';
  if (receipt === '' && conversationId === '') return 'Invalid TransactionID or OriginalConversationID';
  if (text('PartyA') !== shortCode) return 'Invalid PartyA';
  if (text('IdentifierType') !== '4') return 'Invalid IdentifierType';
  const resultUrl = text('ResultURL');
  if (resultUrl === undefined || !isUrl(resultUrl)) return 'Invalid ResultURL';
  if (!isUrl(text('QueueTimeOutURL'))) return 'Invalid QueueTimeOutURL';
  return { about: receipt === '' ? { conversationId } : { receipt }, resultUrl };
}

interface ReversalRequest {
  /** The receipt to reverse. */
  readonly receipt: string;
  /** The short code the payment was made to. */
  readonly receiverParty: string;
  readonly amount: number;
  readonly resultUrl: string;
  readonly queueTimeoutUrl: string;
}

/** A Reversal request as Daraja's gateway reads it, or the first problem it would find. */
function readReversalRequest(
  body: Readonly<Record<string, unknown>>,
  initiatorName: string,
): ReversalRequest | string {
  const text = (name: string) => textOf(body[name]);
  if (text('Initiator') !== initiatorName) return 'Invalid Initiator';
  if (text('CommandID') !== 'TransactionReversal') return 'Invalid CommandID';
  const receipt = text('TransactionID') ?? '';
  if (!/^[A-Z0-9]+$/.test(receipt)) return 'Invalid TransactionID';
  const amount = wholeAmount(body['Amount']);
  if (amount === undefined) return 'Invalid Amount';
  const receiverParty = text('ReceiverParty') ?? '';
  if (!/^\d{5,7}$/.test(receiverParty)) return 'Invalid ReceiverParty';
  if (text('RecieverIdentifierType') !== '11') return 'Invalid RecieverIdentifierType';
  if ((text('Remarks') ?? '').length > 100) return 'Invalid Remarks';
  const resultUrl = text('ResultURL');
  if (resultUrl === undefined || !isUrl(resultUrl)) return 'Invalid ResultURL';
  const queueTimeoutUrl = text('QueueTimeOutURL');
  if (queueTimeoutUrl === undefined || !isUrl(queueTimeoutUrl)) return 'Invalid QueueTimeOutURL';
  return { receipt, amount, receiverParty, resultUrl, queueTimeoutUrl };
}

interface Reversal extends Conversation, ReversalRequest {
  /** How it ends, decided when it is taken: a second reversal of a receipt is refused while the first is open. */
  readonly end: { readonly resultCode: number | string; readonly resultDesc: string };
  /** The paid prompt it reverses, when the receipt is one the fake issued. */
  readonly prompt: Prompt | undefined;
  /** For one refused as already reversed: the reversal that did it. */
  readonly reversedBy: Reversal | undefined;
  reversalReceipt: string | undefined;
  ended: boolean;
}

interface B2bPayment extends Conversation, B2bRequest {
  readonly script: B2bScript;
  receipt: string | undefined;
  ended: boolean;
}

/** The Result Daraja POSTs when an initiator call ends. */
function resultBody(
  conversation: Conversation,
  end: {
    readonly resultCode: number | string;
    readonly resultDesc: string;
    readonly transactionId: string;
    readonly parameters: unknown;
    readonly referenceItem: unknown;
  },
): unknown {
  return {
    Result: {
      ResultType: 0,
      ResultCode: end.resultCode,
      ResultDesc: end.resultDesc,
      OriginatorConversationID: conversation.originatorConversationId,
      ConversationID: conversation.conversationId,
      TransactionID: end.transactionId,
      ...(end.parameters === undefined ? {} : { ResultParameters: { ResultParameter: end.parameters } }),
      ReferenceData: { ReferenceItem: end.referenceItem },
    },
  };
}

/** A failure's parameters: one bare object for an initiator refused, as in Daraja's sample; none otherwise. */
const failureParameters = (resultCode: number | string) =>
  String(resultCode) === '2001' ? { Key: 'BOCompletedTime', Value: completedTime } : undefined;

function b2bResultBody(payment: B2bPayment): unknown {
  const { resultCode, resultDesc } = payment.script;
  return resultBody(payment, {
    resultCode,
    resultDesc,
    transactionId: succeeded(resultCode) ? (payment.receipt ?? placeholderReceipt) : placeholderReceipt,
    parameters: succeeded(resultCode)
      ? [
          { Key: 'Amount', Value: payment.script.resultAmount ?? payment.amount },
          { Key: 'TransCompletedTime', Value: completedTime },
          { Key: 'DebitPartyCharges' },
          {
            Key: 'ReceiverPartyPublicName',
            Value: `${payment.script.receiverParty ?? payment.partyB} - Agent Store`,
          },
          { Key: 'Currency', Value: 'KES' },
        ]
      : failureParameters(resultCode),
    referenceItem: { Key: 'BillReferenceNumber', Value: payment.accountReference },
  });
}

/** The Result Daraja POSTs when a reversal ends, with the parameters of Daraja's sample on success. */
function reversalResultBody(reversal: Reversal, shortCode: string): unknown {
  const { resultCode, resultDesc } = reversal.end;
  return resultBody(reversal, {
    resultCode,
    resultDesc,
    transactionId: reversal.reversalReceipt ?? placeholderReceipt,
    parameters: succeeded(resultCode)
      ? [
          { Key: 'DebitAccountBalance', Value: 'Utility Account|KES|51661.00|51661.00|0.00|0.00' },
          { Key: 'Amount', Value: reversal.amount },
          { Key: 'TransCompletedTime', Value: completedTime },
          { Key: 'OriginalTransactionID', Value: reversal.receipt },
          { Key: 'Charge', Value: 0 },
          { Key: 'CreditPartyPublicName', Value: `${String(reversal.prompt?.phone ?? '')} - Payer` },
          { Key: 'DebitPartyPublicName', Value: `${shortCode} - Topup` },
        ]
      : failureParameters(resultCode),
    referenceItem: { Key: 'QueueTimeoutURL', Value: reversal.queueTimeoutUrl },
  });
}

// Daraja's sample Transaction Status Result carries Occasion without a value.
const occasion = { Key: 'Occasion' };

/** Transaction Status's Result when the initiator's SecurityCredential was wrong. */
function statusRefusedBody(query: Conversation): unknown {
  return resultBody(query, {
    resultCode: invalidInitiator.resultCode,
    resultDesc: invalidInitiator.resultDesc,
    transactionId: placeholderReceipt,
    parameters: failureParameters(invalidInitiator.resultCode),
    referenceItem: occasion,
  });
}

/** A call Transaction Status can report: a B2B or a reversal, as its Result's parameters tell it. */
interface HeldCall extends Conversation {
  readonly status: 'Pending' | 'Completed' | 'Failed';
  readonly receipt: string | undefined;
  readonly amount: number;
  readonly reasonType: string;
  readonly creditPartyName: string;
}

function heldPayment(payment: B2bPayment): HeldCall {
  return {
    originatorConversationId: payment.originatorConversationId,
    conversationId: payment.conversationId,
    status: !payment.ended ? 'Pending' : madePayment(payment.script) ? 'Completed' : 'Failed',
    receipt: payment.receipt,
    amount: payment.script.resultAmount ?? payment.amount,
    reasonType: 'Business Buy Goods',
    creditPartyName: `${payment.script.receiverParty ?? payment.partyB} - Agent Store`,
  };
}

/**
 * A reversal as Transaction Status tells it. One refused as already reversed is told by the reversal that
 * did it: the money is back with the payer either way, which is what "check status, then treat as done"
 * relies on.
 */
function heldReversal(reversal: Reversal): HeldCall {
  const done = reversal.reversedBy ?? reversal;
  return {
    originatorConversationId: reversal.originatorConversationId,
    conversationId: reversal.conversationId,
    status:
      !reversal.ended || !done.ended ? 'Pending' : succeeded(done.end.resultCode) ? 'Completed' : 'Failed',
    receipt: done.reversalReceipt,
    amount: reversal.amount,
    reasonType: 'Reversal',
    creditPartyName: `${String(reversal.prompt?.phone ?? '')} - Payer`,
  };
}

/** Transaction Status's Result: what the fake holds about the call asked about, when it holds it. */
function statusResultBody(query: Conversation, held: HeldCall | undefined, shortCode: string): unknown {
  if (held === undefined) {
    return resultBody(query, {
      resultCode: 2032,
      resultDesc: 'The transaction is not found.',
      transactionId: placeholderReceipt,
      parameters: undefined,
      referenceItem: occasion,
    });
  }
  return resultBody(query, {
    resultCode: 0,
    resultDesc: 'The service request has been accepted successfully.',
    transactionId: newReceipt(),
    parameters: [
      ...(held.receipt === undefined ? [] : [{ Key: 'ReceiptNo', Value: held.receipt }]),
      { Key: 'TransactionStatus', Value: held.status },
      { Key: 'Amount', Value: held.amount },
      { Key: 'ReasonType', Value: held.reasonType },
      { Key: 'DebitPartyName', Value: `${shortCode} - Topup` },
      { Key: 'CreditPartyName', Value: held.creditPartyName },
      { Key: 'OriginatorConversationID', Value: held.originatorConversationId },
      { Key: 'ConversationID', Value: held.conversationId },
    ],
    referenceItem: occasion,
  });
}

/**
 * Starts the fake on a free loopback port.
 *
 * @example
 * ```ts
 * import { startFakeDaraja } from '@topup/providers/fakes';
 *
 * const fake = await startFakeDaraja({
 *   consumerKey: 'key', consumerSecret: 'secret', shortCode: '600992', passkey: 'passkey', promptMs: 50,
 * });
 * // Point the adapter at fake.url; a B2B to a store number ending 9003 then has its Result lost.
 * await fake.close();
 * ```
 */
export async function startFakeDaraja(options: FakeDarajaOptions): Promise<FakeDaraja> {
  const promptMs = options.promptMs ?? 200;
  const resultDelayMs = options.resultDelayMs ?? promptMs;
  const initiatorName = options.initiatorName ?? 'testapi';
  const initiatorPassword = options.initiatorPassword ?? 'Safaricom999!*!';
  const collection = { shortCode: options.shortCode, initiatorName, initiatorPassword };
  const disbursement = options.b2b ?? collection;
  /** The initiator of a short code of ours, which a status query names as its PartyA. */
  const initiatorOf = (partyA: string) => (partyA === disbursement.shortCode ? disbursement : collection);
  const privateKeyPem =
    options.privateKeyPem ?? readFileSync(new URL('./fixtures/fake-daraja-key.pem', import.meta.url), 'utf8');
  const prompts = new Map<string, Prompt>();
  const payments = new Map<string, B2bPayment>();
  const paymentsByOriginator = new Map<string, B2bPayment>();
  /** Paid prompts by their receipt, which a reversal names. */
  const paidPrompts = new Map<string, Prompt>();
  const reversals: Reversal[] = [];
  const callbacks: { url: string; body: unknown; status: number }[] = [];
  const timers = createFakeTimers();
  const { later } = timers;
  const post = async (url: string, body: unknown) => {
    let status = 0;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(5_000),
      });
      status = response.status;
      await response.body?.cancel();
    } catch {
      // Daraja retries neither a callback nor a Result that failed: the query paths are what recover them.
    }
    callbacks.push({ url, body, status });
  };
  /** Ends a prompt; a paid one gets its receipt, kept for the callbacks and for a reversal. */
  const endPrompt = (prompt: Prompt) => {
    prompt.ended = true;
    if (succeeded(prompt.script.resultCode) && prompt.receipt === undefined) {
      prompt.receipt = newReceipt();
      paidPrompts.set(prompt.receipt, prompt);
    }
  };
  // A callback delivered twice is the same callback, receipt and all.
  const callBack = (prompt: Prompt) => post(prompt.callbackUrl, stkCallbackBody(prompt));
  const end = (prompt: Prompt) => {
    const { delivery } = prompt.script;
    if (delivery === 'never') return;
    later(delivery === 'late' ? promptMs * 10 : promptMs, async () => {
      endPrompt(prompt);
      if (delivery === 'lost' || delivery === 'before_ack') return;
      await callBack(prompt);
      if (delivery === 'twice') await callBack(prompt);
    });
  };
  const settle = (payment: B2bPayment) => {
    payment.ended = true;
    if (madePayment(payment.script)) payment.receipt = newReceipt();
  };
  /** Ends a B2B as scripted; for `before_ack`, before its acknowledgement is sent. */
  const endPayment = async (payment: B2bPayment) => {
    const { delivery } = payment.script;
    if (delivery === 'before_ack') {
      settle(payment);
      await post(payment.resultUrl, b2bResultBody(payment));
      return;
    }
    if (delivery === 'never') return;
    later(delivery === 'late' ? resultDelayMs * 10 : resultDelayMs, async () => {
      settle(payment);
      if (delivery === 'lost') return;
      // A Result delivered twice is the same Result, receipt and all.
      const body = b2bResultBody(payment);
      await post(payment.resultUrl, body);
      if (delivery === 'twice') await post(payment.resultUrl, body);
    });
  };
  /** Takes a reversal, deciding how it ends: a receipt is reversed once, and only one the fake issued. */
  const takeReversal = (read: ReversalRequest, credentialRight: boolean): Reversal => {
    const prompt = paidPrompts.get(read.receipt);
    const reversedBy = reversals.find(
      (earlier) => earlier.receipt === read.receipt && succeeded(earlier.end.resultCode),
    );
    const ending = !credentialRight
      ? invalidInitiator
      : prompt === undefined || prompt.paidShortCode !== read.receiverParty
        ? { resultCode: 'R000002', resultDesc: 'The OriginalTransactionID is invalid.' }
        : reversedBy !== undefined
          ? { resultCode: 'R000001', resultDesc: 'The transaction has already been reversed' }
          : { resultCode: 0, resultDesc: 'The service request is processed successfully.' };
    return {
      ...newConversation(),
      ...read,
      end: { resultCode: ending.resultCode, resultDesc: ending.resultDesc },
      prompt,
      reversedBy: String(ending.resultCode) === 'R000001' ? reversedBy : undefined,
      reversalReceipt: undefined,
      ended: false,
    };
  };
  const heldAbout = (about: StatusQuery['about']): HeldCall | undefined => {
    if ('receipt' in about) {
      const payment = [...payments.values()].find((held) => held.receipt === about.receipt);
      if (payment !== undefined) return heldPayment(payment);
      const reversal = reversals.find((held) => held.reversalReceipt === about.receipt);
      return reversal === undefined ? undefined : heldReversal(reversal);
    }
    const payment = paymentsByOriginator.get(about.conversationId) ?? payments.get(about.conversationId);
    if (payment !== undefined) return heldPayment(payment);
    const reversal = reversals.find(
      (held) =>
        held.originatorConversationId === about.conversationId ||
        held.conversationId === about.conversationId,
    );
    return reversal === undefined ? undefined : heldReversal(reversal);
  };
  const credentialIsRight = (fields: Readonly<Record<string, unknown>>, password: string) =>
    passwordInCredential(textOf(fields['SecurityCredential']) ?? '', privateKeyPem) === password;
  const requests: FakeDarajaRequest[] = [];
  let currentToken: string | undefined;
  let tokensIssued = 0;
  const issue = () => {
    tokensIssued += 1;
    currentToken = randomBytes(21).toString('base64url');
    return currentToken;
  };
  const expectedBasic = `Basic ${Buffer.from(`${options.consumerKey}:${options.consumerSecret}`).toString('base64')}`;

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? '/', 'http://fake');
    const body = request.method === 'POST' ? await bodyOf(request) : undefined;
    requests.push({ method: request.method ?? '', path: url.pathname, body });
    if (url.pathname === '/oauth/v1/generate') {
      if (url.searchParams.get('grant_type') !== 'client_credentials') {
        darajaError(response, 400, '400.008.02', 'Invalid grant type passed');
        return;
      }
      if (request.headers.authorization !== expectedBasic) {
        darajaError(response, 400, '400.008.01', 'Invalid Authentication passed');
        return;
      }
      // An older answer's shape: expires_in as a string.
      json(response, 200, { access_token: issue(), expires_in: '3599' });
      return;
    }
    if (request.headers.authorization !== `Bearer ${currentToken ?? '-'}`) {
      darajaError(response, 404, '404.001.03', 'Invalid Access Token');
      return;
    }
    if (url.pathname === '/mpesa/stkpush/v1/processrequest' && request.method === 'POST') {
      const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      const problem = stkPushProblem(fields, options);
      if (problem !== undefined) {
        darajaError(response, 400, '400.002.02', `Bad Request - ${problem}`);
        return;
      }
      const prompt: Prompt = {
        merchantRequestId: requestId(),
        checkoutRequestId: `ws_CO_${randomBytes(9).toString('hex')}`,
        script: stkScriptFor(String(fields['PhoneNumber'])),
        amount: Number(fields['Amount']),
        phone: Number(fields['PhoneNumber']),
        callbackUrl: String(fields['CallBackURL']),
        paidShortCode:
          fields['TransactionType'] === 'CustomerPayBillOnline'
            ? String(fields['PartyB'])
            : options.shortCode,
        ended: false,
        firstQueryAnswered: false,
        receipt: undefined,
      };
      prompts.set(prompt.checkoutRequestId, prompt);
      if (prompt.script.delivery === 'before_ack') {
        endPrompt(prompt);
        await callBack(prompt);
      }
      end(prompt);
      if (prompt.script.ack === 'lost') {
        request.socket.destroy();
        return;
      }
      json(response, 200, {
        MerchantRequestID: prompt.merchantRequestId,
        CheckoutRequestID: prompt.checkoutRequestId,
        ResponseCode: '0',
        ResponseDescription: 'Success. Request accepted for processing',
        CustomerMessage: 'Success. Request accepted for processing',
      });
      return;
    }
    if (url.pathname === '/mpesa/b2b/v1/paymentrequest' && request.method === 'POST') {
      const fields = objectOf(body) ?? {};
      const read = readB2bRequest(fields, disbursement.initiatorName, disbursement.shortCode);
      if (typeof read === 'string') {
        darajaError(response, 400, '400.002.02', `Bad Request - ${read}`);
        return;
      }
      const payment: B2bPayment = {
        ...newConversation(),
        ...read,
        script: credentialIsRight(fields, disbursement.initiatorPassword)
          ? b2bScriptFor(read.partyB)
          : invalidInitiator,
        receipt: undefined,
        ended: false,
      };
      payments.set(payment.conversationId, payment);
      paymentsByOriginator.set(payment.originatorConversationId, payment);
      await endPayment(payment);
      json(response, 200, acceptedAck(payment));
      return;
    }
    if (url.pathname === '/mpesa/reversal/v1/request' && request.method === 'POST') {
      const fields = objectOf(body) ?? {};
      const read = readReversalRequest(fields, initiatorName);
      if (typeof read === 'string') {
        darajaError(response, 400, '400.002.02', `Bad Request - ${read}`);
        return;
      }
      const reversal = takeReversal(read, credentialIsRight(fields, initiatorPassword));
      reversals.push(reversal);
      later(resultDelayMs, () => {
        reversal.ended = true;
        if (succeeded(reversal.end.resultCode)) reversal.reversalReceipt = newReceipt();
        return post(reversal.resultUrl, reversalResultBody(reversal, options.shortCode));
      });
      json(response, 200, acceptedAck(reversal));
      return;
    }
    if (url.pathname === '/mpesa/transactionstatus/v1/query' && request.method === 'POST') {
      const fields = objectOf(body) ?? {};
      const asking = initiatorOf(textOf(fields['PartyA']) ?? '');
      const read = readStatusQuery(fields, asking.initiatorName, asking.shortCode);
      if (typeof read === 'string') {
        darajaError(response, 400, '400.002.02', `Bad Request - ${read}`);
        return;
      }
      const query = newConversation();
      const refused = !credentialIsRight(fields, asking.initiatorPassword);
      // Status is read when the Result is made, not when the query came: a B2B may end in between.
      later(resultDelayMs, () =>
        post(
          read.resultUrl,
          refused
            ? statusRefusedBody(query)
            : statusResultBody(query, heldAbout(read.about), options.shortCode),
        ),
      );
      json(response, 200, acceptedAck(query));
      return;
    }
    if (url.pathname === '/mpesa/stkpushquery/v1/query' && request.method === 'POST') {
      const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
      const timestamp = typeof fields['Timestamp'] === 'string' ? fields['Timestamp'] : '';
      if (fields['Password'] !== stkPassword(options.shortCode, options.passkey, timestamp)) {
        darajaError(response, 400, '400.002.02', 'Bad Request - Wrong credentials');
        return;
      }
      const prompt = prompts.get(String(fields['CheckoutRequestID']));
      if (prompt === undefined) {
        darajaError(response, 400, '400.002.02', 'Bad Request - Invalid CheckoutRequestID');
        return;
      }
      const { firstQuery } = prompt.script;
      const answersFirst = prompt.ended && firstQuery !== undefined && !prompt.firstQueryAnswered;
      if (answersFirst) prompt.firstQueryAnswered = true;
      if (!prompt.ended || (answersFirst && firstQuery === 'processing')) {
        darajaError(response, 500, '500.001.1001', 'The transaction is being processed');
        return;
      }
      if (answersFirst && firstQuery !== 'processing') {
        json(response, 200, {
          ResponseCode: '0',
          ResponseDescription: 'The service request has been accepted successsfully',
          MerchantRequestID: prompt.merchantRequestId,
          CheckoutRequestID: prompt.checkoutRequestId,
          ResultCode: firstQuery.resultCode,
          ResultDesc: 'An undocumented result',
        });
        return;
      }
      // STK Query sends the result code as a string, unlike the callback.
      json(response, 200, {
        ResponseCode: '0',
        ResponseDescription: 'The service request has been accepted successsfully',
        MerchantRequestID: prompt.merchantRequestId,
        CheckoutRequestID: prompt.checkoutRequestId,
        ResultCode: String(prompt.script.resultCode),
        ResultDesc:
          prompt.script.resultCode === 0
            ? 'The service request is processed successfully.'
            : 'Request cancelled by user',
      });
      return;
    }
    darajaError(response, 404, '404.002.01', 'Resource not found');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) darajaError(response, 500, '500.003.1001', 'Internal Server Error');
    });
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    callbacks,
    get stkPrompts() {
      return [...prompts.values()].map(
        ({ checkoutRequestId, merchantRequestId, phone, amount, receipt, ended, script }) => ({
          checkoutRequestId,
          merchantRequestId,
          phone: String(phone),
          amount,
          receipt,
          ended,
          resultCode: ended ? script.resultCode : undefined,
        }),
      );
    },
    get b2bPayments() {
      return [...payments.values()].map(
        ({ conversationId, originatorConversationId, partyB, amount, receipt, ended, script }) => ({
          conversationId,
          originatorConversationId,
          partyB,
          amount,
          receipt,
          ended,
          resultCode: ended ? script.resultCode : undefined,
        }),
      );
    },
    get reversals() {
      return reversals.map(
        ({ conversationId, originatorConversationId, receipt, amount, reversalReceipt, ended, end }) => ({
          conversationId,
          originatorConversationId,
          receipt,
          amount,
          reversalReceipt,
          ended,
          resultCode: ended ? end.resultCode : undefined,
        }),
      );
    },
    get tokensIssued() {
      return tokensIssued;
    },
    issueTokenElsewhere() {
      issue();
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        timers.clear();
        server.close((error) => {
          if (error === undefined) resolve();
          else reject(error);
        });
        server.closeAllConnections();
      }),
  };
}
