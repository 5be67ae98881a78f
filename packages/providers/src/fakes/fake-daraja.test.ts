// The fake Daraja's payment prompts, driven through our own STK client and readers over real HTTP: each
// scripted result code, and each way callbacks misbehave, as an adapter will meet them.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openStore } from '@topup/ledger';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callDaraja, issueDarajaToken } from '../daraja/daraja-client.js';
import { parseStkCallback, type StkCallback } from '../daraja/stk-callback.js';
import { readStkQueryAnswer, stkQueryRequest } from '../daraja/stk-query.js';
import { stkPushRequest } from '../daraja/stk-push-request.js';
import { createSharedAccessToken, type SharedAccessToken } from '../shared-access-token.js';
import { startFakeDaraja, type FakeDaraja } from './fake-daraja.js';

const app = { shortCode: '174379', passkey: 'fake-passkey' };
const credentials = { consumerKey: 'key', consumerSecret: 'secret' };
const promptMs = 60;

describe('the fake Daraja’s payment prompts', () => {
  let fake: FakeDaraja;
  let store: Store;
  let tokens: SharedAccessToken;
  let receiver: Server;
  let callbackUrl: string;
  const received: StkCallback[] = [];

  beforeAll(async () => {
    fake = await startFakeDaraja({ ...credentials, ...app, promptMs });
    store = await openStore({ dataDir: 'memory://' });
    const endpoint = { baseUrl: fake.url, timeoutMs: 2_000 };
    tokens = createSharedAccessToken({
      store,
      provider: 'daraja',
      issue: () => issueDarajaToken(endpoint, credentials),
    });
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const read = parseStkCallback(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
        if (read.ok) received.push(read.callback);
        response.writeHead(200, { 'Content-Type': 'application/json' });
        response.end('{"ResultCode":0,"ResultDesc":"Accepted"}');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}/stk`;
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

  async function prompt(payer: string): Promise<string> {
    const answer = await callDaraja(
      endpoint(),
      tokens,
      '/mpesa/stkpush/v1/processrequest',
      stkPushRequest({
        ...app,
        transactionType: 'CustomerPayBillOnline',
        partyB: app.shortCode,
        payerMobile: payer,
        amountMinor: 5_000n,
        callbackUrl,
        accountReference: 'Airtime',
        description: 'Airtime',
        at: new Date(),
      }),
    );
    if (answer.kind !== 'ok') throw new Error(`Expected the prompt accepted, received ${answer.kind}.`);
    return String(answer.body['CheckoutRequestID']);
  }

  const callbacksFor = (checkoutRequestId: string) =>
    received.filter((callback) => callback.checkoutRequestId === checkoutRequestId);

  const query = async (checkoutRequestId: string) =>
    readStkQueryAnswer(
      await callDaraja(
        endpoint(),
        tokens,
        '/mpesa/stkpushquery/v1/query',
        stkQueryRequest({ ...app, checkoutRequestId, at: new Date() }),
      ),
    );

  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it('calls back a payment made once, with its receipt, and STK Query agrees', async () => {
    const id = await prompt('254708374149');
    expect(await query(id)).toEqual({ kind: 'pending' });
    await wait(promptMs * 4);
    expect(callbacksFor(id)).toMatchObject([{ outcome: { kind: 'paid' }, amountMinor: 5_000n }]);
    expect(callbacksFor(id)[0]?.receipt).toMatch(/^TK[0-9A-F]{8}$/);
    expect(await query(id)).toMatchObject({ kind: 'ended', resultCode: '0', outcome: { kind: 'paid' } });
    expect(fake.stkPrompts.find((held) => held.checkoutRequestId === id)).toEqual({
      checkoutRequestId: id,
      merchantRequestId: expect.stringMatching(/\S/) as unknown,
      phone: '254708374149',
      amount: 50,
      receipt: callbacksFor(id)[0]?.receipt,
      ended: true,
      resultCode: 0,
    });
  });

  it('takes no prompt sent with a token another process renewed, and lists only the one made with the new', async () => {
    const payer = '254708374150';
    fake.issueTokenElsewhere();
    const id = await prompt(payer);
    expect(
      fake.requests.filter(
        (request) => (request.body as { PhoneNumber?: unknown } | undefined)?.PhoneNumber === payer,
      ),
    ).toHaveLength(2);
    expect(fake.stkPrompts.filter((held) => held.phone === payer)).toMatchObject([
      { checkoutRequestId: id, ended: false, receipt: undefined, resultCode: undefined },
    ]);
  });

  it.each([
    ['254708370001', '1'],
    ['254708371032', '1032'],
    ['254708371037', '1037'],
    ['254708372001', '2001'],
    ['254708370003', 'SFC_IC0003'],
  ])('ends the prompt of %s with result %s, a declined payment', async (payer, code) => {
    const id = await prompt(payer);
    await wait(promptMs * 4);
    expect(callbacksFor(id)).toMatchObject([
      { resultCode: code, outcome: { kind: 'declined' }, receipt: '' },
    ]);
  });

  it('calls back twice for 9001, and before the acknowledgement for 9002', async () => {
    const twice = await prompt('254708379001');
    const early = await prompt('254708379002');
    expect(callbacksFor(early)).toHaveLength(1);
    await wait(promptMs * 4);
    expect(callbacksFor(twice)).toHaveLength(2);
  });

  it('loses the callback for 9003, leaving only STK Query to tell', async () => {
    const id = await prompt('254708379003');
    await wait(promptMs * 4);
    expect(callbacksFor(id)).toEqual([]);
    expect(await query(id)).toMatchObject({ kind: 'ended', outcome: { kind: 'paid' } });
  });

  it('keeps 9004’s prompt open, so STK Query says pending, and calls back 9005 late', async () => {
    const open = await prompt('254708379004');
    const late = await prompt('254708379005');
    await wait(promptMs * 4);
    expect(await query(open)).toEqual({ kind: 'pending' });
    expect(callbacksFor(late)).toEqual([]);
    await wait(promptMs * 10);
    expect(callbacksFor(late)).toHaveLength(1);
  });

  it('calls back 9007 paid with an Amount of 1, and 9008 paid from another number', async () => {
    const wrongAmount = await prompt('254708379007');
    const otherPayer = await prompt('254708379008');
    await wait(promptMs * 4);
    expect(callbacksFor(wrongAmount)).toMatchObject([
      { outcome: { kind: 'paid' }, amountMinor: 100n, mobile: '254708379007' },
    ]);
    expect(callbacksFor(otherPayer)).toMatchObject([
      { outcome: { kind: 'paid' }, amountMinor: 5_000n, mobile: '254700000009' },
    ]);
  });

  it('answers STK Query about 9009 first with an undocumented code, then the result', async () => {
    const id = await prompt('254708379009');
    await wait(promptMs * 4);
    expect(callbacksFor(id)).toEqual([]);
    expect(await query(id)).toEqual({
      kind: 'unknown',
      problem: 'M-Pesa result 4999 is not documented: the payment is unknown (An undocumented result)',
    });
    expect(await query(id)).toMatchObject({ kind: 'ended', outcome: { kind: 'paid' } });
  });

  it('answers STK Query about 9010 “being processed” once after it ended, then the result', async () => {
    const id = await prompt('254708379010');
    await wait(promptMs * 4);
    expect(await query(id)).toEqual({ kind: 'pending' });
    expect(await query(id)).toMatchObject({ kind: 'ended', outcome: { kind: 'paid' } });
  });
});
