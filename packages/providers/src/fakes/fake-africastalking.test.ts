// The fake Africa's Talking driven through our own airtime protocol code (the send's request builder and
// answer reader, the status callback's parser) over real HTTP, with a loopback receiver for its callbacks:
// each scripted end, each way callbacks misbehave, and each refusal, as an airtime adapter will meet them.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { airtimeSendRequest, readAirtimeSendAnswer } from '../africastalking/airtime-send.js';
import { parseAirtimeStatusCallback, type AirtimeStatus } from '../africastalking/airtime-status-callback.js';
import { startFakeAfricasTalking, type FakeAfricasTalking } from './fake-africastalking.js';

const account = { username: 'topup', apiKey: 'at-key' };
const deliveryMs = 50;
const duplicateWindowMs = 500;
const idempotencyWindowMs = 500;

const parsed = (text: string): unknown => JSON.parse(text) as unknown;

interface Received {
  readonly path: string;
  readonly contentType: string;
  readonly status: AirtimeStatus | undefined;
}

describe('the fake Africa’s Talking', () => {
  let fake: FakeAfricasTalking;
  let formFake: FakeAfricasTalking;
  let receiver: Server;
  const received: Received[] = [];
  let keys = 0;

  beforeAll(async () => {
    receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const contentType = request.headers['content-type'] ?? '';
        const read = parseAirtimeStatusCallback(contentType, Buffer.concat(chunks).toString('utf8'));
        received.push({ path: request.url ?? '', contentType, status: read.ok ? read.status : undefined });
        response.writeHead(200, { 'Content-Type': 'text/plain' });
        response.end('OK');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${String((receiver.address() as AddressInfo).port)}`;
    fake = await startFakeAfricasTalking({
      ...account,
      callbackUrl: `${receiverUrl}/json`,
      deliveryMs,
      duplicateWindowMs,
      idempotencyWindowMs,
    });
    formFake = await startFakeAfricasTalking({
      ...account,
      callbackUrl: `${receiverUrl}/form`,
      callbackForm: 'form',
      deliveryMs,
    });
  });
  afterAll(async () => {
    await fake.close();
    await formFake.close();
    receiver.closeAllConnections();
    await new Promise<void>((resolve) =>
      receiver.close(() => {
        resolve();
      }),
    );
  });

  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  /** Waits until `done`, for three seconds at most. */
  async function until(done: () => boolean): Promise<void> {
    const deadline = Date.now() + 3_000;
    while (!done() && Date.now() < deadline) await wait(10);
  }

  const newKey = () => {
    keys += 1;
    return `TX${String(keys)}-delivery`;
  };

  const request = (mobile: string, amountMinor = 10_000n, currency = 'KES') =>
    airtimeSendRequest({ ...account, idempotencyKey: newKey(), mobile, amountMinor, currency });

  /** POSTs a send as given and reads its answer with our reader. */
  async function post(
    send: { headers: Record<string, string>; body: string },
    to: FakeAfricasTalking = fake,
  ): Promise<{ status: number; text: string; read: ReturnType<typeof readAirtimeSendAnswer> }> {
    const response = await fetch(`${to.url}/version1/airtime/send`, {
      method: 'POST',
      headers: send.headers,
      body: send.body,
    });
    const text = await response.text();
    return { status: response.status, text, read: readAirtimeSendAnswer(response.status, text) };
  }

  /** The requestId our reader found for the first recipient, or '' when it was not Sent. */
  const requestIdOf = (read: ReturnType<typeof readAirtimeSendAnswer>) => {
    const [recipient] = read.ok ? read.recipients : [];
    return recipient?.kind === 'sent' ? recipient.requestId : '';
  };

  /** Sends to one number and returns the requestId our reader found, failing unless it was Sent. */
  async function sendTo(mobile: string, to: FakeAfricasTalking = fake): Promise<string> {
    const { read } = await post(request(mobile), to);
    const requestId = requestIdOf(read);
    if (requestId === '') throw new Error(`Expected ${mobile} sent, read ${JSON.stringify(read)}.`);
    return requestId;
  }

  const callbacksFor = (requestId: string) =>
    received.filter((callback) => callback.status?.requestId === requestId);

  /** The callbacks for a send once `count` have come (or three seconds have passed). */
  async function callbacks(requestId: string, count = 1): Promise<Received[]> {
    await until(() => callbacksFor(requestId).length >= count);
    return callbacksFor(requestId);
  }

  async function query(
    requestId: string,
    apiKey = account.apiKey,
  ): Promise<{ status: number; text: string }> {
    const search = new URLSearchParams({ username: account.username, transactionId: requestId });
    const response = await fetch(`${fake.url}/query/transaction/find?${search.toString()}`, {
      headers: { apiKey, Accept: 'application/json' },
    });
    return { status: response.status, text: await response.text() };
  }

  const held = (requestId: string) => fake.deliveries.find((delivery) => delivery.requestId === requestId);

  it('sends a recipient, then posts a Success callback that our parser reads and the query confirms', async () => {
    const send = request('254711082300');
    const { status, text, read } = await post(send);
    expect(status).toBe(201);
    const requestId = requestIdOf(read);
    expect(requestId).toMatch(/^ATQid_[0-9a-f]{32}$/);
    expect(parsed(text)).toEqual({
      errorMessage: 'None',
      numSent: 1,
      totalAmount: 'KES 100.0000',
      totalDiscount: 'KES 4.0000',
      responses: [
        {
          phoneNumber: '+254711082300',
          errorMessage: 'None',
          amount: 'KES 100.0000',
          status: 'Sent',
          requestId,
          discount: 'KES 4.0000',
        },
      ],
    });
    expect(held(requestId)).toEqual({
      requestId,
      phoneNumber: '+254711082300',
      amount: 'KES 100.0000',
      status: 'Sent',
      idempotencyKey: send.headers['Idempotency-Key'],
    });
    expect(callbacksFor(requestId)).toEqual([]);
    const [callback, ...more] = await callbacks(requestId);
    expect(more).toEqual([]);
    expect(callback).toEqual({
      path: '/json',
      contentType: 'application/json',
      status: {
        requestId,
        delivered: true,
        phoneNumber: '+254711082300',
        description: 'Success',
        value: 'KES 100.0000',
        discount: 'KES 4.0000',
      },
    });
    await until(() => fake.callbacks.some((sent) => sent.body.includes(requestId)));
    const posted = fake.callbacks.find((sent) => sent.body.includes(requestId));
    expect(posted?.status).toBe(200);
    expect(parsed(posted?.body ?? '')).toEqual({
      requestId,
      status: 'Success',
      phoneNumber: '+254711082300',
      description: 'Success',
      discount: 'KES 4.0000',
      value: 'KES 100.0000',
    });
    expect(held(requestId)?.status).toBe('Success');
    expect(parsed((await query(requestId)).text)).toEqual({
      status: 'Success',
      data: {
        requestId,
        status: 'Success',
        phoneNumber: '+254711082300',
        value: 'KES 100.0000',
        description: 'Success',
      },
    });
  });

  it('reads an amount with cents as AT writes it, the discount four per cent of it', async () => {
    const { text } = await post(request('254711082301', 10_050n));
    expect(parsed(text)).toMatchObject({
      numSent: 1,
      totalAmount: 'KES 100.5000',
      totalDiscount: 'KES 4.0200',
      responses: [{ amount: 'KES 100.5000', discount: 'KES 4.0200', status: 'Sent' }],
    });
  });

  it('posts the same callback form-encoded when so configured, which our parser reads all the same', async () => {
    const requestId = await sendTo('254711082302', formFake);
    const [callback] = await callbacks(requestId);
    expect(callback).toEqual({
      path: '/form',
      contentType: 'application/x-www-form-urlencoded',
      status: {
        requestId,
        delivered: true,
        phoneNumber: '+254711082302',
        description: 'Success',
        value: 'KES 100.0000',
        discount: 'KES 4.0000',
      },
    });
    // The fake records a callback once its POST is answered, a moment after the receiver has it.
    await until(() => formFake.callbacks.some((sent) => sent.body.includes(requestId)));
    const posted = formFake.callbacks.find((sent) => sent.body.includes(requestId));
    expect(Object.fromEntries(new URLSearchParams(posted?.body ?? ''))).toEqual({
      requestId,
      status: 'Success',
      phoneNumber: '+254711082302',
      description: 'Success',
      discount: 'KES 4.0000',
      value: 'KES 100.0000',
    });
  });

  it.each([
    ['254711080005', 'Failed to deliver airtime: carrier error'],
    ['254711080006', 'Insufficient balance in the airtime wallet'],
  ])('sends %s, then posts a Failed callback saying %j, as the query does', async (mobile, description) => {
    const requestId = await sendTo(mobile);
    const [callback, ...more] = await callbacks(requestId);
    expect(more).toEqual([]);
    expect(callback?.status).toMatchObject({
      requestId,
      delivered: false,
      phoneNumber: `+${mobile}`,
      description,
    });
    expect(held(requestId)?.status).toBe('Failed');
    expect(parsed((await query(requestId)).text)).toMatchObject({
      status: 'Success',
      data: { requestId, status: 'Failed', description },
    });
  });

  it('posts 9001’s callback twice, the same both times', async () => {
    const requestId = await sendTo('254711089001');
    const twice = await callbacks(requestId, 2);
    expect(twice).toHaveLength(2);
    expect(twice[1]).toEqual(twice[0]);
    expect(twice[0]?.status?.delivered).toBe(true);
  });

  it('posts 9002’s callback before the send is answered', async () => {
    const requestId = await sendTo('254711089002');
    expect(callbacksFor(requestId)).toMatchObject([{ status: { requestId, delivered: true } }]);
    expect(held(requestId)?.status).toBe('Success');
  });

  it('loses 9003’s callback, leaving the query to report it Success', async () => {
    const requestId = await sendTo('254711089003');
    await until(() => held(requestId)?.status !== 'Sent');
    expect(held(requestId)?.status).toBe('Success');
    expect(parsed((await query(requestId)).text)).toMatchObject({
      status: 'Success',
      data: { requestId, status: 'Success' },
    });
    expect(callbacksFor(requestId)).toEqual([]);
    expect(fake.callbacks.some((sent) => sent.body.includes(requestId))).toBe(false);
  });

  it('never ends 9004: no callback, and the query says Sent', async () => {
    const requestId = await sendTo('254711089004');
    await wait(deliveryMs * 3);
    expect(parsed((await query(requestId)).text)).toEqual({
      status: 'Success',
      data: {
        requestId,
        status: 'Sent',
        phoneNumber: '+254711089004',
        value: 'KES 100.0000',
        description: '',
      },
    });
    expect(callbacksFor(requestId)).toEqual([]);
  });

  it('posts 9005’s callback late, after a prompt recipient’s', async () => {
    const late = await sendTo('254711089005');
    const prompt = await sendTo('254711082303');
    await callbacks(prompt);
    expect(callbacksFor(late)).toEqual([]);
    expect(await callbacks(late)).toMatchObject([{ status: { requestId: late, delivered: true } }]);
  });

  it('refuses a repeated Idempotency-Key within its window as a duplicate, not replaying or sending', async () => {
    const send = request('254711082304');
    const first = await post(send);
    const requestId = requestIdOf(first.read);
    await callbacks(requestId);
    const before = fake.deliveries.length;
    const again = await post(send);
    expect(again.status).toBe(201);
    expect(parsed(again.text)).toEqual({
      errorMessage: 'A duplicate request was received within the last 5 minutes',
      numSent: 0,
      totalAmount: '0',
      totalDiscount: '0',
      responses: [],
    });
    // Our reader: taken (by the first), outcome unknown; never "nothing sent", never a refusal.
    expect(again.read).toEqual({
      ok: false,
      problem: 'HTTP 201: A duplicate request was received within the last 5 minutes',
      nothingSent: false,
      duplicate: true,
      walletLow: false,
    });
    expect(fake.deliveries).toHaveLength(before);
    await wait(deliveryMs * 3);
    expect(callbacksFor(requestId)).toHaveLength(1);
    expect(
      fake.requests.filter((seen) => seen.headers.idempotencyKey === send.headers['Idempotency-Key']),
    ).toHaveLength(2);
  });

  it('takes a repeated Idempotency-Key after its window as a new send, delivering twice', async () => {
    const send = request('254711082310');
    const first = requestIdOf((await post(send)).read);
    await wait(Math.max(idempotencyWindowMs, duplicateWindowMs) + 20);
    const second = requestIdOf((await post(send)).read);
    expect(second).toMatch(/^ATQid_/);
    expect(second).not.toBe(first);
    expect(
      fake.deliveries.filter((delivery) => delivery.idempotencyKey === send.headers['Idempotency-Key']),
    ).toHaveLength(2);
  });

  it('refuses the same number and amount again within five minutes, keyed or not, as a per-recipient duplicate', async () => {
    const first = await post(request('254711082305'));
    expect(first.read).toMatchObject({ ok: true, recipients: [{ kind: 'sent' }] });
    const { 'Idempotency-Key': _key, ...headers } = request('254711082305').headers;
    for (const again of [
      await post(request('254711082305')),
      await post({ headers, body: request('254711082305').body }),
    ]) {
      expect(again.status).toBe(201);
      expect(again.read).toEqual({
        ok: true,
        recipients: [
          {
            kind: 'duplicate',
            reason: 'A duplicate request was received within the last 5 minutes',
            phoneNumber: '+254711082305',
          },
        ],
      });
      expect(parsed(again.text)).toMatchObject({
        numSent: 0,
        totalAmount: 'KES 0.0000',
        responses: [{ status: 'Failed', requestId: 'None' }],
      });
    }
    expect((await post(request('254711082305', 20_000n))).read).toMatchObject({
      ok: true,
      recipients: [{ kind: 'sent' }],
    });
    await wait(duplicateWindowMs + 20);
    expect((await post(request('254711082305'))).read).toMatchObject({
      ok: true,
      recipients: [{ kind: 'sent' }],
    });
  });

  it('refuses 0007 at once because the airtime wallet cannot pay for it, which our reader flags', async () => {
    const before = fake.deliveries.length;
    const { status, read } = await post(request('254711080007'));
    expect(status).toBe(201);
    expect(read).toEqual({
      ok: true,
      recipients: [
        { kind: 'refused', reason: 'Insufficient Credit', phoneNumber: '+254711080007', walletLow: true },
      ],
    });
    expect(fake.deliveries).toHaveLength(before);
  });

  it('answers a wrong apiKey or username 401 in plain text, which our reader reads as nothing sent', async () => {
    const before = fake.deliveries.length;
    const send = request('254711082306');
    const wrongKey = await post({ ...send, headers: { ...send.headers, apiKey: 'not-the-key' } });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.text).toBe('The supplied authentication is invalid');
    expect(wrongKey.read).toEqual({
      ok: false,
      problem: 'HTTP 401: The supplied authentication is invalid',
      nothingSent: true,
      duplicate: false,
      walletLow: false,
    });
    const wrongUser = airtimeSendRequest({
      ...account,
      username: 'someoneelse',
      idempotencyKey: newKey(),
      mobile: '254711082306',
      amountMinor: 10_000n,
      currency: 'KES',
    });
    expect((await post(wrongUser)).status).toBe(401);
    expect(fake.deliveries).toHaveLength(before);
    const recorded = fake.requests.at(-2);
    expect(recorded?.headers).toEqual({
      apiKeyMatched: false,
      idempotencyKey: send.headers['Idempotency-Key'],
    });
    expect(JSON.stringify(fake.requests)).not.toContain(account.apiKey);
    expect(JSON.stringify(fake.requests)).not.toContain('not-the-key');
    expect(await query('ATQid_00000000000000000000000000000000', 'not-the-key')).toEqual({
      status: 401,
      text: 'The supplied authentication is invalid',
    });
  });

  it.each([
    ['below 10 shillings', 900n, 'KES', '+254711082308'],
    ['above 10,000 shillings', 1_000_100n, 'KES', '+254711082318'],
    ['not in shillings', 10_000n, 'USD', '+254711082328'],
  ])(
    'refuses an amount %s for that recipient only, counting it in no total',
    async (_case, amountMinor, currency, other) => {
      const bad = parsed(
        new URLSearchParams(request('254711082307', amountMinor, currency).body).get('recipients') ?? '',
      ) as unknown[];
      // Another number each time: the same number and amount again would be refused as a duplicate.
      const recipients = JSON.stringify([...bad, { phoneNumber: other, amount: 'KES 50' }]);
      const { status, text, read } = await post({
        headers: request('254711082307').headers,
        body: new URLSearchParams({ username: account.username, recipients }).toString(),
      });
      expect(status).toBe(201);
      expect(read).toMatchObject({
        ok: true,
        recipients: [
          { kind: 'refused', reason: 'Invalid amount', phoneNumber: '+254711082307' },
          { kind: 'sent', phoneNumber: other },
        ],
      });
      expect(parsed(text)).toMatchObject({
        numSent: 1,
        totalAmount: 'KES 50.0000',
        totalDiscount: 'KES 2.0000',
        responses: [{ status: 'Failed', requestId: 'None' }, { status: 'Sent' }],
      });
    },
  );

  it.each([['254811082300'], ['2547110823001'], ['255711082300']])(
    'refuses the number %s for that recipient as an invalid phone number',
    async (mobile) => {
      const before = fake.deliveries.length;
      const { status, read } = await post(request(mobile));
      expect(status).toBe(201);
      expect(read).toEqual({
        ok: true,
        recipients: [
          { kind: 'refused', reason: 'Invalid phone number', phoneNumber: `+${mobile}`, walletLow: false },
        ],
      });
      expect(fake.deliveries).toHaveLength(before);
    },
  );

  it.each([
    ['no recipients', {}, 'recipients is required'],
    [
      'recipients that are not a JSON list',
      { recipients: '{"phoneNumber":"+254711082300"}' },
      'recipients must be a JSON list',
    ],
    [
      'recipients that are not JSON at all',
      { recipients: 'phoneNumber=+254711082300' },
      'recipients must be a JSON list',
    ],
    [
      'a recipient without phoneNumber',
      { recipients: '[{"amount":"KES 100"}]' },
      'recipient 1 has no phoneNumber',
    ],
    [
      'a recipient without amount',
      { recipients: '[{"phoneNumber":"+254711082300"}]' },
      'recipient 1 has no amount',
    ],
  ])('answers a body with %s 400, naming the problem', async (_case, fields, problem) => {
    const before = fake.deliveries.length;
    const { status, text, read } = await post({
      headers: request('254711082300').headers,
      body: new URLSearchParams({ username: account.username, ...fields }).toString(),
    });
    expect(status).toBe(400);
    expect(parsed(text)).toEqual({
      errorMessage: problem,
      numSent: 0,
      totalAmount: '0',
      totalDiscount: '0',
      responses: [],
    });
    expect(read).toEqual({
      ok: false,
      problem: `HTTP 400: ${problem}`,
      nothingSent: true,
      duplicate: false,
      walletLow: false,
    });
    expect(fake.deliveries).toHaveLength(before);
  });

  it('answers a query about an unknown transaction, and any other path, as AT does', async () => {
    expect(await query('ATQid_00000000000000000000000000000000')).toEqual({
      status: 200,
      text: JSON.stringify({ status: 'Failure', errorMessage: 'Transaction not found' }),
    });
    const response = await fetch(`${fake.url}/version1/airtime/balance`);
    expect(response.status).toBe(404);
    expect(await response.text()).toBe('Not Found');
  });
});
