// The fake Daraja's initiator calls, B2B, Reversal and Transaction Status, driven through our own request
// builders, client and Result reader over real HTTP: each scripted failure, and each way Results misbehave,
// as an agent-float adapter will meet them, and the reversals a refund meets when it names no paid prompt.
// (Reversals of paid prompts are driven through the adapter, in daraja/daraja-provider.test.ts.)

import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openStore } from '@topup/ledger';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callDaraja, issueDarajaToken, type DarajaAnswer } from '../daraja/daraja-client.js';
import {
  b2bPaymentRequest,
  reversalRequest,
  transactionStatusRequest,
  type DarajaInitiator,
} from '../daraja/initiator-requests.js';
import { parseInitiatorResult, type InitiatorResult } from '../daraja/initiator-result.js';
import { securityCredential } from '../daraja/security-credential.js';
import { createSharedAccessToken, type SharedAccessToken } from '../shared-access-token.js';
import { startFakeDaraja, type FakeDaraja } from './fake-daraja.js';

const app = { shortCode: '600992', passkey: 'fake-passkey' };
const credentials = { consumerKey: 'key', consumerSecret: 'secret' };
const promptMs = 50;
const certificate = readFileSync(new URL('./fixtures/fake-daraja-certificate.pem', import.meta.url), 'utf8');

describe('the fake Daraja’s initiator calls', () => {
  let fake: FakeDaraja;
  let store: Store;
  let tokens: SharedAccessToken;
  let receiver: Server;
  let initiator: DarajaInitiator;
  const received: InitiatorResult[] = [];

  beforeAll(async () => {
    fake = await startFakeDaraja({ ...credentials, ...app, promptMs });
    store = await openStore({ dataDir: 'memory://' });
    tokens = createSharedAccessToken({
      store,
      provider: 'daraja',
      issue: () => issueDarajaToken({ baseUrl: fake.url, timeoutMs: 2_000 }, credentials),
    });
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const read = parseInitiatorResult(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
        if (read.ok) received.push(read.result);
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end('{"ResultCode":0,"ResultDesc":"Accepted"}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`;
    initiator = {
      initiatorName: 'testapi',
      securityCredential: securityCredential('Safaricom999!*!', certificate),
      shortCode: app.shortCode,
      resultUrl: `${receiverUrl}/result`,
      queueTimeoutUrl: `${receiverUrl}/timeout`,
    };
  }, 60_000);
  afterAll(async () => {
    await fake.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) =>
      receiver.close(() => {
        resolve();
      }),
    );
    await store.close();
  });

  const endpoint = () => ({ baseUrl: fake.url, timeoutMs: 2_000 });

  const b2bBody = (storeNumber: string, from: DarajaInitiator = initiator) =>
    b2bPaymentRequest({
      ...from,
      commandId: 'BusinessBuyGoods',
      storeNumber,
      agentNumber: 'AG100200',
      amountMinor: 150_000n,
      remarks: 'Float TX1',
    });

  const accepted = (answer: DarajaAnswer) => {
    if (answer.kind !== 'ok') throw new Error(`Expected the call accepted, received ${answer.kind}.`);
    expect(answer.body).toMatchObject({
      OriginatorConversationID: expect.stringMatching(/^\d{5}-\d{8}-1$/) as unknown,
      ConversationID: expect.stringMatching(/^AG_\d{8}_[0-9a-f]{20}$/) as unknown,
      ResponseCode: '0',
    });
    return {
      conversationId: String(answer.body['ConversationID']),
      originatorConversationId: String(answer.body['OriginatorConversationID']),
    };
  };

  const pay = async (storeNumber: string, from: DarajaInitiator = initiator) =>
    accepted(
      await callDaraja(endpoint(), tokens, '/mpesa/b2b/v1/paymentrequest', b2bBody(storeNumber, from)),
    );

  const askStatus = async (
    about: { readonly receipt: string } | { readonly originatorConversationId: string },
    from: DarajaInitiator = initiator,
  ) =>
    accepted(
      await callDaraja(
        endpoint(),
        tokens,
        '/mpesa/transactionstatus/v1/query',
        transactionStatusRequest({ ...from, about }),
      ),
    );

  const resultsFor = (conversationId: string) =>
    received.filter((result) => result.conversationId === conversationId);

  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Waits until `done`, for three seconds at most. */
  async function until(done: () => boolean): Promise<void> {
    const deadline = Date.now() + 3_000;
    while (!done() && Date.now() < deadline) await wait(10);
  }

  /** The Results for a call once `count` have come (or three seconds have passed). */
  async function results(conversationId: string, count = 1): Promise<InitiatorResult[]> {
    await until(() => resultsFor(conversationId).length >= count);
    return resultsFor(conversationId);
  }

  const heldPayment = (conversationId: string) =>
    fake.b2bPayments.find((payment) => payment.conversationId === conversationId);

  /** The Transaction Status Result about a B2B. */
  async function statusOf(about: Parameters<typeof askStatus>[0]): Promise<InitiatorResult | undefined> {
    const { conversationId } = await askStatus(about);
    return (await results(conversationId))[0];
  }

  it('posts a paid B2B’s Result with its receipt, which our reader reads and Transaction Status confirms', async () => {
    const { conversationId, originatorConversationId } = await pay('600000');
    expect(resultsFor(conversationId)).toEqual([]);
    const [result, ...more] = await results(conversationId);
    expect(more).toEqual([]);
    expect(result).toMatchObject({ resultCode: '0', originatorConversationId });
    const receipt = result?.transactionId ?? '';
    expect(receipt).toMatch(/^TK[0-9A-F]{8}$/);
    expect(Object.fromEntries(result?.parameters ?? [])).toEqual({
      Amount: '1500',
      TransCompletedTime: '20261124102115',
      ReceiverPartyPublicName: '600000 - Agent Store',
      Currency: 'KES',
    });
    expect(heldPayment(conversationId)).toEqual({
      conversationId,
      originatorConversationId,
      partyB: '600000',
      amount: 1500,
      receipt,
      ended: true,
      resultCode: 0,
    });
    const status = await statusOf({ receipt });
    expect(status?.resultCode).toBe('0');
    expect(status?.parameters.get('TransactionStatus')).toBe('Completed');
    expect(status?.parameters.get('ReceiptNo')).toBe(receipt);
    expect(status?.parameters.get('ConversationID')).toBe(conversationId);
  });

  it.each([
    ['602001', '2001', 'The initiator information is invalid.'],
    ['600011', '11', 'The DebitParty is in an invalid state.'],
    ['600001', '1', 'The balance is insufficient for the transaction.'],
  ])('ends the B2B to %s with result %s and a placeholder receipt', async (storeNumber, code, desc) => {
    const { conversationId, originatorConversationId } = await pay(storeNumber);
    const [result, ...more] = await results(conversationId);
    expect(more).toEqual([]);
    expect(result).toMatchObject({ resultCode: code, resultDesc: desc, transactionId: '0000000000' });
    expect(heldPayment(conversationId)).toMatchObject({ ended: true, receipt: undefined });
    const status = await statusOf({ originatorConversationId });
    expect(status?.resultCode).toBe('0');
    expect(status?.parameters.get('TransactionStatus')).toBe('Failed');
    expect(status?.parameters.has('ReceiptNo')).toBe(false);
  });

  it('posts 9007’s paid Result with an Amount of 1, and 9008’s naming another receiver, as status does', async () => {
    const wrongAmount = await pay('609007');
    const otherReceiver = await pay('609008');
    const [amountResult] = await results(wrongAmount.conversationId);
    const [receiverResult] = await results(otherReceiver.conversationId);
    expect(amountResult?.parameters.get('Amount')).toBe('1');
    expect(receiverResult?.parameters.get('ReceiverPartyPublicName')).toBe('000009 - Agent Store');
    const status = await statusOf({ originatorConversationId: wrongAmount.originatorConversationId });
    expect(status?.parameters.get('Amount')).toBe('1');
  });

  it('ends 0017’s B2B with 17 (internal failure), though the money moved, as Transaction Status says', async () => {
    const { conversationId, originatorConversationId } = await pay('600017');
    expect(await results(conversationId)).toMatchObject([
      { resultCode: '17', resultDesc: 'Internal Failure', transactionId: '0000000000' },
    ]);
    const status = await statusOf({ originatorConversationId });
    expect(status?.parameters.get('TransactionStatus')).toBe('Completed');
    expect(status?.parameters.get('ReceiptNo')).toMatch(/^TK[0-9A-F]{8}$/);
  });

  it('pays from a separate disbursement short code with its own initiator, when so configured', async () => {
    const split = await startFakeDaraja({
      ...credentials,
      ...app,
      promptMs,
      b2b: { shortCode: '700700', initiatorName: 'floatapi', initiatorPassword: 'float password' },
    });
    try {
      const splitTokens = createSharedAccessToken({
        store,
        provider: 'daraja-split',
        issue: () => issueDarajaToken({ baseUrl: split.url, timeoutMs: 2_000 }, credentials),
      });
      const disburser = {
        ...initiator,
        shortCode: '700700',
        initiatorName: 'floatapi',
        securityCredential: securityCredential('float password', certificate),
      };
      const endpointOf = { baseUrl: split.url, timeoutMs: 2_000 };
      const paid = await callDaraja(
        endpointOf,
        splitTokens,
        '/mpesa/b2b/v1/paymentrequest',
        b2bBody('600000', disburser),
      );
      expect(paid.kind).toBe('ok');
      const fromCollection = await callDaraja(
        endpointOf,
        splitTokens,
        '/mpesa/b2b/v1/paymentrequest',
        b2bBody('600000'),
      );
      expect(fromCollection).toMatchObject({
        kind: 'error',
        error: { errorMessage: 'Bad Request - Invalid Initiator' },
      });
      const asked = await callDaraja(
        endpointOf,
        splitTokens,
        '/mpesa/transactionstatus/v1/query',
        transactionStatusRequest({ ...disburser, about: { originatorConversationId: '12345-67890123-1' } }),
      );
      expect(asked.kind).toBe('ok');
    } finally {
      await split.close();
    }
  });

  it('sends a failure’s one ResultParameter as a bare object, which our reader still reads', async () => {
    const { conversationId } = await pay('602001');
    const postedFor = () =>
      fake.callbacks.find((callback) => JSON.stringify(callback.body).includes(conversationId));
    await until(() => postedFor() !== undefined);
    const posted = postedFor();
    expect(posted?.status).toBe(200);
    expect(posted?.body).toMatchObject({
      Result: { ResultCode: 2001, ResultParameters: { ResultParameter: { Key: 'BOCompletedTime' } } },
    });
    expect(resultsFor(conversationId)[0]?.parameters.get('BOCompletedTime')).toBe('20261124102115');
  });

  it('accepts a B2B with a wrong SecurityCredential, then ends it 2001 whatever its script', async () => {
    const wrong = { ...initiator, securityCredential: securityCredential('not the password', certificate) };
    const { conversationId } = await pay('609001', wrong);
    const [result] = await results(conversationId);
    expect(result).toMatchObject({ resultCode: '2001', resultDesc: 'The initiator information is invalid.' });
    // 9001 would have posted its second Result at once; a short wait shows none came.
    await wait(promptMs * 2);
    expect(resultsFor(conversationId)).toHaveLength(1);
    expect(heldPayment(conversationId)).toMatchObject({ ended: true, resultCode: 2001, receipt: undefined });
  });

  it('ends a Transaction Status query 2001 when its SecurityCredential is wrong', async () => {
    const { originatorConversationId } = await pay('600000');
    const wrong = { ...initiator, securityCredential: securityCredential('not the password', certificate) };
    const { conversationId } = await askStatus({ originatorConversationId }, wrong);
    const [result] = await results(conversationId);
    expect(result).toMatchObject({ resultCode: '2001', transactionId: '0000000000' });
    expect(result?.parameters.has('TransactionStatus')).toBe(false);
  });

  it('posts 9001’s Result twice, the same receipt both times', async () => {
    const { conversationId } = await pay('609001');
    const twice = await results(conversationId, 2);
    expect(twice).toHaveLength(2);
    expect(twice[1]?.transactionId).toBe(twice[0]?.transactionId);
    expect(twice[0]?.resultCode).toBe('0');
  });

  it('posts 9002’s Result before the acknowledgement comes back', async () => {
    const { conversationId } = await pay('609002');
    expect(resultsFor(conversationId)).toMatchObject([{ resultCode: '0' }]);
  });

  it('loses 9003’s Result, leaving Transaction Status by OriginalConversationID to report it Completed', async () => {
    const { conversationId, originatorConversationId } = await pay('609003');
    await until(() => heldPayment(conversationId)?.ended === true);
    const receipt = heldPayment(conversationId)?.receipt;
    expect(receipt).toMatch(/^TK[0-9A-F]{8}$/);
    const status = await statusOf({ originatorConversationId });
    expect(resultsFor(conversationId)).toEqual([]);
    expect(status).toMatchObject({
      resultCode: '0',
      resultDesc: 'The service request has been accepted successfully.',
    });
    expect(status?.transactionId).not.toBe(receipt);
    expect(Object.fromEntries(status?.parameters ?? [])).toEqual({
      ReceiptNo: receipt,
      TransactionStatus: 'Completed',
      Amount: '1500',
      ReasonType: 'Business Buy Goods',
      DebitPartyName: '600992 - Topup',
      CreditPartyName: '609003 - Agent Store',
      OriginatorConversationID: originatorConversationId,
      ConversationID: conversationId,
    });
  });

  it('keeps 9004’s B2B open, so Transaction Status reports it Pending, also by its ConversationID', async () => {
    const { conversationId } = await pay('609004');
    const status = await statusOf({ originatorConversationId: conversationId });
    expect(status?.parameters.get('TransactionStatus')).toBe('Pending');
    expect(status?.parameters.has('ReceiptNo')).toBe(false);
    expect(resultsFor(conversationId)).toEqual([]);
    expect(heldPayment(conversationId)).toMatchObject({ ended: false, resultCode: undefined });
  });

  it('posts 9005’s Result late, after a prompt B2B’s', async () => {
    const late = await pay('609005');
    const prompt = await pay('600000');
    await results(prompt.conversationId);
    expect(resultsFor(late.conversationId)).toEqual([]);
    expect(await results(late.conversationId)).toMatchObject([{ resultCode: '0' }]);
  });

  it('ends a Transaction Status query about a B2B it never made 2032, without parameters', async () => {
    const status = await statusOf({ originatorConversationId: '12345-67890123-1' });
    expect(status).toMatchObject({ resultCode: '2032', resultDesc: 'The transaction is not found.' });
    expect(status?.parameters.size).toBe(0);
  });

  it.each([
    [
      'an AccountReference of 14 characters',
      { AccountReference: 'A'.repeat(14) },
      'Invalid AccountReference',
    ],
    ['a PartyA that is not its short code', { PartyA: '600000' }, 'Invalid PartyA'],
    ['another initiator', { Initiator: 'someoneelse' }, 'Invalid Initiator'],
    ['a CommandID B2B does not take', { CommandID: 'BusinessPayment' }, 'Invalid CommandID'],
    ['an Amount in cents', { Amount: '1500.50' }, 'Invalid Amount'],
    ['a ResultURL that is not a URL', { ResultURL: 'result' }, 'Invalid ResultURL'],
  ])('refuses a B2B with %s, naming the problem', async (_case, change, problem) => {
    const before = fake.b2bPayments.length;
    const answer = await callDaraja(endpoint(), tokens, '/mpesa/b2b/v1/paymentrequest', {
      ...b2bBody('600000'),
      ...change,
    });
    expect(answer).toMatchObject({
      kind: 'error',
      error: { status: 400, errorCode: '400.002.02', errorMessage: `Bad Request - ${problem}` },
    });
    expect(fake.b2bPayments).toHaveLength(before);
  });

  const reversalBody = (receipt: string, from: DarajaInitiator = initiator) =>
    reversalRequest({ ...from, receipt, amountMinor: 5_000n, remarks: 'Airtime not delivered' });

  const reverse = async (receipt: string, from: DarajaInitiator = initiator) =>
    accepted(await callDaraja(endpoint(), tokens, '/mpesa/reversal/v1/request', reversalBody(receipt, from)));

  it('ends a reversal of a receipt it never issued R000002, without parameters', async () => {
    const { conversationId } = await reverse('TK00000000');
    const [result] = await results(conversationId);
    expect(result).toMatchObject({
      resultCode: 'R000002',
      resultDesc: 'The OriginalTransactionID is invalid.',
      transactionId: '0000000000',
    });
    expect(result?.parameters.size).toBe(0);
    expect(fake.reversals.find((reversal) => reversal.conversationId === conversationId)).toMatchObject({
      receipt: 'TK00000000',
      amount: 50,
      ended: true,
      resultCode: 'R000002',
      reversalReceipt: undefined,
    });
    const status = await statusOf({ originatorConversationId: conversationId });
    expect(status?.parameters.get('TransactionStatus')).toBe('Failed');
  });

  it('accepts a reversal with a wrong SecurityCredential, then ends it 2001', async () => {
    const wrong = { ...initiator, securityCredential: securityCredential('not the password', certificate) };
    const { conversationId } = await reverse('TK00000000', wrong);
    expect(await results(conversationId)).toMatchObject([
      { resultCode: '2001', resultDesc: 'The initiator information is invalid.' },
    ]);
  });

  it.each([
    ['another initiator', { Initiator: 'someoneelse' }, 'Invalid Initiator'],
    ['another CommandID', { CommandID: 'TransactionStatusQuery' }, 'Invalid CommandID'],
    ['no TransactionID', { TransactionID: '' }, 'Invalid TransactionID'],
    ['an Amount in cents', { Amount: '50.50' }, 'Invalid Amount'],
    ['a ReceiverParty that is no short code', { ReceiverParty: 'Topup' }, 'Invalid ReceiverParty'],
    [
      'a receiver identifier type other than 11',
      { RecieverIdentifierType: '4' },
      'Invalid RecieverIdentifierType',
    ],
    ['a QueueTimeOutURL that is not a URL', { QueueTimeOutURL: 'timeout' }, 'Invalid QueueTimeOutURL'],
  ])('refuses a reversal with %s, naming the problem', async (_case, change, problem) => {
    const before = fake.reversals.length;
    const answer = await callDaraja(endpoint(), tokens, '/mpesa/reversal/v1/request', {
      ...reversalBody('TK00000000'),
      ...change,
    });
    expect(answer).toMatchObject({
      kind: 'error',
      error: { status: 400, errorCode: '400.002.02', errorMessage: `Bad Request - ${problem}` },
    });
    expect(fake.reversals).toHaveLength(before);
  });

  it('refuses a Transaction Status query that names no transaction', async () => {
    const { OriginalConversationID: _named, ...unnamed } = transactionStatusRequest({
      ...initiator,
      about: { originatorConversationId: '12345-67890123-1' },
    });
    const answer = await callDaraja(endpoint(), tokens, '/mpesa/transactionstatus/v1/query', unnamed);
    expect(answer).toMatchObject({
      kind: 'error',
      error: {
        errorCode: '400.002.02',
        errorMessage: 'Bad Request - Invalid TransactionID or OriginalConversationID',
      },
    });
  });
});
