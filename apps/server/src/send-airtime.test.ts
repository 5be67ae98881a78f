// `send_airtime` against the real server, with the worker running, on every store: airtime to many
// recipients paid from the caller's Airtime balance. The answer lists one transaction per recipient in
// request order with the channel after the reservation; the total is reserved in one step or not at all
// (7000); every problem of every entry is named by its position (3000); a recipient the carrier refuses
// at once is cancelled and released while the others go on, and only a send whose every carrier was
// unavailable is answered 9000, its key given back. Each recipient is its own transaction with its own
// signed callback, and once all are resolved the balance is exactly the funding less what was delivered.

import { decodeJsonEnvelope, decodeXmlEnvelope } from '@topup/envelope';
import type { Store } from '@topup/ledger';
import { createSandboxSimulator } from '@topup/providers';
import { verifyCallback } from '@topup/signing';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startCallbackSink } from './testing/callback-sink.js';
import type { ArrivedCallback } from './testing/callback-sink.js';
import { eventually } from './testing/eventually.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import type { TestStores } from './testing/test-stores.js';
import { envelopeOf, xmlRequestBody } from './testing/wire.js';
import type { XmlField } from './testing/wire.js';

type Recipient = Readonly<Record<string, string>>;
type Format = 'json' | 'xml';

const acme = {
  name: 'Acme Agencies',
  mobile: '254700000100',
  email: 'ops@acme.example',
  agent_name: 'Acme Till',
  agent_number: '100100',
  store_number: '200200',
};

/** Three recipients on three carriers, written as callers write them. */
const threeRecipients: readonly Recipient[] = [
  { mobile: '0733 000 123', amount: '50', name: 'Otieno', email: 'otieno@example.com' },
  { mobile: '+254712000456', amount: '20' },
  { mobile: '254771000789', amount: '30', name: 'Achieng', network: 'CarrierC' },
];

/** The answer's entries for `threeRecipients`, still requested. */
const threeEntries = [
  {
    recipient: { name: 'Otieno', mobile: '254733000123', email: 'otieno@example.com' },
    currency: 'KES',
    amount: '50',
    country: 'KE',
    network: 'CarrierB',
    status: 'Requested',
    state: 'requested',
    code: '',
    errors: [],
  },
  {
    recipient: { name: '', mobile: '254712000456', email: '' },
    currency: 'KES',
    amount: '20',
    country: 'KE',
    network: 'CarrierA',
    status: 'Requested',
    state: 'requested',
    code: '',
    errors: [],
  },
  {
    recipient: { name: 'Achieng', mobile: '254771000789', email: '' },
    currency: 'KES',
    amount: '30',
    country: 'KE',
    network: 'CarrierC',
    status: 'Requested',
    state: 'requested',
    code: '',
    errors: [],
  },
].map((entry) => ({ reference: expect.stringMatching(/^TX[A-Z0-9]+$/) as unknown, ...entry }));

interface Entry {
  readonly reference: string;
  readonly recipient: { name: string; mobile: string; email: string };
  readonly amount: string;
  readonly status: string;
  readonly state: string;
  readonly code: string;
  readonly errors: string[];
}

interface SendData {
  readonly transactions: Entry[];
  readonly channel: { type: string; currency: string; balance: string };
  readonly sender: { name: string; mobile: string; email: string };
}

const stranger = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

function headersOf(callback: ArrivedCallback): Record<string, string> {
  return Object.fromEntries(Object.entries(callback.headers).map(([name, value]) => [name, String(value)]));
}

/** A body in the format asked for: JSON as is, XML with the list as `<recipients><recipient>`. */
function bodyOf(format: Format, fields: Readonly<Record<string, unknown>>): string {
  return format === 'json' ? JSON.stringify(fields) : xmlRequestBody(fields as Record<string, XmlField>);
}

function contentTypeOf(format: Format): string {
  return format === 'json' ? 'application/json' : 'text/xml';
}

describe.each(openTestStores())('send_airtime over HTTP with the worker running, on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store, {
      worker: true,
      env: { RATE_LIMIT_PER_SECOND: '1000', RATE_LIMIT_BURST: '1000' },
    });
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  function send(
    token: string,
    fields: Readonly<Record<string, unknown>>,
    options: { format?: Format; key?: string } = {},
  ): Promise<Response> {
    const format = options.format ?? 'json';
    return service.call('send_airtime', {
      token,
      body: bodyOf(format, fields),
      headers: {
        'Content-Type': contentTypeOf(format),
        Accept: contentTypeOf(format),
        ...(options.key === undefined ? {} : { 'Idempotency-Key': options.key }),
      },
    });
  }

  async function sent(response: Response): Promise<SendData> {
    expect(response.status).toBe(200);
    const envelope = await envelopeOf(response);
    expect(envelope.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Airtime send requested' });
    return envelope.data as unknown as SendData;
  }

  async function transactionsOf(accountId: string): Promise<{ reference: string; state: string }[]> {
    const { rows } = await store.query<{ reference: string; state: string }>(
      'SELECT reference, state FROM transactions WHERE account_id = $1 ORDER BY reference',
      [accountId],
    );
    return rows;
  }

  /** Waits until none of `references` is still requested, and returns their states in order. */
  async function resolvedStates(accountId: string, references: readonly string[]): Promise<string[]> {
    return eventually(
      'every recipient’s transaction to be resolved',
      async () => {
        const states = await Promise.all(
          references.map(
            async (reference) => (await service.ledger.getTransaction(accountId, reference))?.state,
          ),
        );
        const resolved = states.filter((state) => state !== undefined && state !== 'requested');
        return resolved.length === references.length ? resolved : undefined;
      },
      15_000,
    );
  }

  /** A funded caller whose only endpoint is a fresh receiver, so every callback there is theirs. */
  async function callerWithReceiver(airtime: bigint, format: Format = 'json') {
    const caller = await service.createCaller({ airtime }, acme);
    const sink = await startCallbackSink();
    onTestFinished(() => sink.close());
    const added = await envelopeOf(
      await service.call('add_callback_endpoint', { token: caller.token, json: { url: sink.url, format } }),
    );
    expect(added.status.code).toBe('0000');
    const { secret } = added.data.endpoint as { secret: string };
    return { ...caller, sink, secret };
  }

  it.each(['json', 'xml'] as const)(
    'answers a %s send with one requested transaction per recipient, in request order, and the balance after the reservation',
    async (format) => {
      const { token, account } = await service.createCaller({ airtime: 1_000_000n }, acme);
      const response = await send(token, { recipients: threeRecipients, note: 'staff airtime' }, { format });
      expect(response.headers.get('content-type')).toBe(`${contentTypeOf(format)}; charset=utf-8`);
      const text = await response.clone().text();
      if (format === 'xml') expect(text).toMatch(/<transactions><transaction><reference>TX/);
      const data = await sent(response);
      expect(Object.keys(data)).toEqual(['errors', 'sender', 'transactions', 'messaging', 'channel']);
      expect(data.sender).toEqual({ name: acme.name, mobile: acme.mobile, email: acme.email });
      expect(data.transactions).toEqual(threeEntries);
      expect(new Set(data.transactions.map((entry) => entry.reference)).size).toBe(3);
      expect(data.channel).toEqual({ type: 'Airtime', currency: 'KES', balance: '9900.00' });
      const written = await transactionsOf(account.id);
      expect(written.map((row) => row.reference).sort()).toEqual(
        data.transactions.map((entry) => entry.reference).sort(),
      );
    },
  );

  it('makes two transactions of a recipient listed twice', async () => {
    const { token, account } = await service.createCaller({ airtime: 1_000_000n });
    const recipient = { mobile: '254733000123', amount: '40' };
    const data = await sent(await send(token, { recipients: [recipient, recipient] }));
    expect(data.transactions).toHaveLength(2);
    expect(data.transactions.map((entry) => [entry.recipient.mobile, entry.amount])).toEqual([
      ['254733000123', '40'],
      ['254733000123', '40'],
    ]);
    const [first, second] = data.transactions;
    expect(first?.reference).not.toBe(second?.reference);
    expect(data.channel.balance).toBe('9920.00');
    expect(await transactionsOf(account.id)).toHaveLength(2);
  });

  it('fills a blank recipient name and e-mail from the contacts an earlier send saved', async () => {
    const { token } = await service.createCaller({ airtime: 1_000_000n });
    await sent(
      await send(token, {
        recipients: [{ mobile: '254733000321', amount: '10', name: 'Wanjiru', email: 'wanjiru@example.com' }],
      }),
    );
    const data = await sent(await send(token, { recipients: [{ mobile: '0733 000 321', amount: '10' }] }));
    expect(data.transactions[0]?.recipient).toEqual({
      name: 'Wanjiru',
      mobile: '254733000321',
      email: 'wanjiru@example.com',
    });
  });

  it.each(['json', 'xml'] as const)(
    'refuses a %s send whose total the Airtime balance cannot cover with 7000, writing nothing',
    async (format) => {
      // Each recipient alone fits in the balance of 100.00; together they do not.
      const { token, account } = await service.createCaller({ airtime: 10_000n });
      const before = await service.ledger.balance(account.id, 'airtime');
      const response = await send(
        token,
        {
          recipients: [
            { mobile: '254733000123', amount: '60' },
            { mobile: '254712000456', amount: '50' },
          ],
        },
        { format },
      );
      expect(response.status).toBe(402);
      const envelope = await envelopeOf(response);
      expect(envelope.status).toEqual({ type: 'FAIL', code: '7000', message: 'Insufficient Balance' });
      expect(await service.ledger.balance(account.id, 'airtime')).toEqual(before);
      expect(await transactionsOf(account.id)).toEqual([]);
    },
  );

  it.each(['json', 'xml'] as const)(
    'names every problem of every %s entry by its position with 3000, writing nothing',
    async (format) => {
      const { token, account } = await service.createCaller({ airtime: 1_000_000n });
      const response = await send(
        token,
        {
          recipients: [
            { mobile: '254733000123', amount: '50' },
            { amount: 'x' },
            { mobile: '12', amount: '5', email: 'not-an-address' },
            'no',
          ],
        },
        { format },
      );
      expect(response.status).toBe(422);
      const envelope = await envelopeOf(response);
      expect(envelope.status).toEqual({
        type: 'FAIL',
        code: '3000',
        message: 'Missing or Invalid Parameters',
      });
      expect(envelope.data.errors).toEqual([
        "'recipients[1].mobile is required.'",
        "'recipients[1].amount is invalid'",
        "'recipients[2].mobile is invalid'",
        "'recipients[2].email is invalid'",
        "'recipients[2].amount is invalid'",
        "'recipients[3] is invalid'",
      ]);
      expect(await transactionsOf(account.id)).toEqual([]);
      expect((await service.ledger.balance(account.id, 'airtime')).availableMinor).toBe(1_000_000n);
    },
  );

  it.each([
    ['no recipients at all', {}, "'recipients is required.'"],
    ['an empty list', { recipients: [] }, "'recipients is required.'"],
    ['a text instead of a list', { recipients: 'everyone' }, "'recipients is invalid'"],
    [
      'an object instead of a list',
      { recipients: { mobile: '254733000123', amount: '50' } },
      "'recipients is invalid'",
    ],
  ])('refuses %s with one 3000 string', async (_, fields, error) => {
    const { token } = await service.createCaller({ airtime: 1_000_000n });
    const response = await send(token, fields);
    expect(response.status).toBe(422);
    expect((await envelopeOf(response)).data.errors).toEqual([error]);
  });

  it('cancels a recipient the carrier refuses at once (0003) in the answer and releases it, while the others go on', async () => {
    const { token, account } = await service.createCaller({ airtime: 1_000_000n });
    const data = await sent(
      await send(token, {
        recipients: [
          { mobile: '254733000123', amount: '50' },
          { mobile: '254733000003', amount: '20' },
          { mobile: '254712000456', amount: '30' },
        ],
      }),
    );
    expect(data.transactions.map((entry) => [entry.amount, entry.status, entry.state])).toEqual([
      ['50', 'Requested', 'requested'],
      ['20', 'Cancelled', 'cancelled'],
      ['30', 'Requested', 'requested'],
    ]);
    expect(data.transactions[1]?.errors).toEqual(['refused by the provider']);
    // The balance as the reservation of the whole total left it.
    expect(data.channel.balance).toBe('9900.00');
    const references = data.transactions.map((entry) => entry.reference);
    expect(await resolvedStates(account.id, references)).toEqual(['completed', 'cancelled', 'completed']);
    expect(await service.ledger.balance(account.id, 'airtime')).toMatchObject({
      availableMinor: 1_000_000n - 8_000n,
      postedMinor: 1_000_000n - 8_000n,
      pendingMinor: 0n,
    });
  });

  it('cancels a recipient whose carrier is unavailable (0004) and sends the rest', async () => {
    const { token, account } = await service.createCaller({ airtime: 1_000_000n });
    const data = await sent(
      await send(token, {
        recipients: [
          { mobile: '254733000004', amount: '20' },
          { mobile: '254733000123', amount: '50' },
        ],
      }),
    );
    expect(data.transactions.map((entry) => [entry.state, entry.errors])).toEqual([
      ['cancelled', ['provider unavailable']],
      ['requested', []],
    ]);
    const references = data.transactions.map((entry) => entry.reference);
    expect(await resolvedStates(account.id, references)).toEqual(['cancelled', 'completed']);
    expect((await service.ledger.balance(account.id, 'airtime')).availableMinor).toBe(1_000_000n - 5_000n);
  });

  it.each(['json', 'xml'] as const)(
    'answers a %s send whose every carrier is unavailable (0004) with 9000, releasing all of it',
    async (format) => {
      const { token, account } = await service.createCaller({ airtime: 1_000_000n });
      const before = await service.ledger.balance(account.id, 'airtime');
      const response = await send(
        token,
        {
          recipients: [
            { mobile: '254733000004', amount: '20' },
            { mobile: '254712000004', amount: '30' },
          ],
        },
        { format },
      );
      expect(response.status).toBe(502);
      const envelope = await envelopeOf(response);
      expect(envelope.status).toEqual({ type: 'FAIL', code: '9000', message: 'Gateway Error' });
      expect(envelope.data.errors).toEqual(['provider unavailable']);
      expect(await service.ledger.balance(account.id, 'airtime')).toEqual(before);
      expect((await transactionsOf(account.id)).map((row) => row.state)).toEqual(['cancelled', 'cancelled']);
    },
  );

  it.each(['json', 'xml'] as const)(
    'calls back each recipient on a %s endpoint, signed: delivered ones SUCCESS/0000, a declined one (0001) FAIL/8000, and the balance is the funding less what was delivered',
    async (format) => {
      const funded = 1_000_000n;
      const caller = await callerWithReceiver(funded, format);
      const recipients = [
        { mobile: '254733000123', amount: '50', name: 'Otieno' },
        { mobile: '254733000001', amount: '20', name: 'Kamau' },
        { mobile: '254712000456', amount: '30' },
      ];
      const data = await sent(await send(caller.token, { recipients }));
      const references = data.transactions.map((entry) => entry.reference);

      const arrived = await eventually(
        'a callback for every recipient',
        () => (caller.sink.arrived.length >= 3 ? caller.sink.arrived : undefined),
        15_000,
      );
      const callbacks = new Map<string, ReturnType<typeof decodeJsonEnvelope>>();
      for (const callback of arrived) {
        const headers = headersOf(callback);
        expect(headers['content-type']).toBe(`${contentTypeOf(format)}; charset=utf-8`);
        expect(verifyCallback({ secrets: [caller.secret], headers, body: callback.body })).toMatchObject({
          ok: true,
          id: headers['webhook-id'],
        });
        // A wrong secret is refused, so the check above is not vacuous.
        expect(verifyCallback({ secrets: [stranger], headers, body: callback.body }).ok).toBe(false);
        const envelope =
          format === 'json' ? decodeJsonEnvelope(callback.body) : decodeXmlEnvelope(callback.body);
        const reference = (envelope.data as { transaction?: { reference?: string } }).transaction?.reference;
        expect(reference).toBeDefined();
        callbacks.set(reference ?? '', envelope);
      }
      expect([...callbacks.keys()].sort()).toEqual([...references].sort());

      for (const [index, reference] of references.entries()) {
        const callback = callbacks.get(reference);
        const recipient = recipients[index];
        const declined = index === 1;
        expect(callback?.status).toEqual(
          declined
            ? { type: 'FAIL', code: '8000', message: 'Airtime Cancelled' }
            : { type: 'SUCCESS', code: '0000', message: 'Airtime delivered' },
        );
        const callbackData = callback?.data as unknown as Record<string, Record<string, string>>;
        // The sent transaction has no payer: no `payment` object.
        expect(Object.keys(callbackData)).toEqual([
          'errors',
          'sender',
          'recipient',
          'transaction',
          'messaging',
          'channel',
        ]);
        expect(callback?.data.errors).toEqual(declined ? ['payment declined'] : []);
        expect(callbackData.transaction).toMatchObject({
          reference,
          type: 'Airtime',
          amount: recipient?.amount,
          state: declined ? 'cancelled' : 'completed',
        });
        expect(callbackData.recipient).toMatchObject({ mobile: recipient?.mobile });
      }

      expect(await resolvedStates(caller.account.id, references)).toEqual([
        'completed',
        'cancelled',
        'completed',
      ]);
      expect(await service.ledger.balance(caller.account.id, 'airtime')).toMatchObject({
        availableMinor: funded - 8_000n,
        postedMinor: funded - 8_000n,
        pendingMinor: 0n,
      });
      expect(await service.ledger.verify()).toMatchObject({ ok: true });
      expect(caller.sink.arrived).toHaveLength(3);
    },
    30_000,
  );

  it('shows a sent transaction through get_transaction with no payment and one delivery leg', async () => {
    const { token, account } = await service.createCaller({ airtime: 1_000_000n }, acme);
    const data = await sent(
      await send(token, { recipients: [{ mobile: '254733000123', amount: '50', name: 'Otieno' }] }),
    );
    const reference = data.transactions[0]?.reference ?? '';
    await resolvedStates(account.id, [reference]);
    const response = await service.call('get_transaction', { token, json: { reference } });
    const found = await envelopeOf(response);
    expect(found.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Transaction found' });
    expect(found.data).not.toHaveProperty('payment');
    expect(found.data.transaction).toMatchObject({
      reference,
      type: 'Airtime',
      amount: '50',
      network: 'CarrierB',
      state: 'completed',
    });
    expect(found.data.recipient).toMatchObject({ name: 'Otieno', mobile: '254733000123' });
    expect(found.data.legs).toEqual([
      expect.objectContaining({ id: `${reference}-delivery`, kind: 'delivery', state: 'succeeded' }),
    ]);
  });

  describe('with an Idempotency-Key', () => {
    const recipients = [
      { mobile: '254733000123', amount: '50' },
      { mobile: '254712000456', amount: '30' },
    ];

    it.each(['json', 'xml'] as const)(
      'replays a %s send byte for byte with Idempotency-Replayed: true, reserving once',
      async (format) => {
        const { token, account } = await service.createCaller({ airtime: 1_000_000n });
        const first = await send(token, { recipients }, { format, key: `send-${format}` });
        const firstBody = await first.text();
        expect(first.status).toBe(200);
        expect(first.headers.get('idempotency-replayed')).toBeNull();
        const again = await send(token, { recipients }, { format, key: `send-${format}` });
        expect(again.status).toBe(200);
        expect(again.headers.get('idempotency-replayed')).toBe('true');
        expect(await again.text()).toBe(firstBody);
        expect(await transactionsOf(account.id)).toHaveLength(2);
        const balance = await service.ledger.balance(account.id, 'airtime');
        expect(balance.availableMinor).toBe(1_000_000n - 8_000n);
      },
    );

    it('makes one send of 20 concurrent requests with one key, all answered alike', async () => {
      const { token, account } = await service.createCaller({ airtime: 1_000_000n });
      const responses = await Promise.all(
        Array.from({ length: 20 }, () => send(token, { recipients }, { key: 'send-concurrent' })),
      );
      const bodies = await Promise.all(responses.map((response) => response.text()));
      expect(responses.map((response) => response.status)).toEqual(Array.from({ length: 20 }, () => 200));
      expect(new Set(bodies).size).toBe(1);
      expect(await transactionsOf(account.id)).toHaveLength(2);
      expect((await service.ledger.balance(account.id, 'airtime')).availableMinor).toBe(1_000_000n - 8_000n);
    });

    it('refuses the key reused with another list with 5000 and HTTP 409, changing nothing', async () => {
      const { token, account } = await service.createCaller({ airtime: 1_000_000n });
      await sent(await send(token, { recipients }, { key: 'send-conflict' }));
      const conflict = await send(
        token,
        { recipients: [...recipients, { mobile: '254771000789', amount: '10' }] },
        { key: 'send-conflict' },
      );
      expect(conflict.status).toBe(409);
      const envelope = await envelopeOf(conflict);
      expect(envelope.status).toEqual({ type: 'FAIL', code: '5000', message: 'Request Not Allowed' });
      expect(envelope.data.errors).toEqual([
        'this Idempotency-Key was already used with a different request',
      ]);
      expect(await transactionsOf(account.id)).toHaveLength(2);
      expect((await service.ledger.balance(account.id, 'airtime')).availableMinor).toBe(1_000_000n - 8_000n);
    });

    it('gives the key back after a 9000 whose carriers took nothing, so a retry is tried afresh', async () => {
      const { token, account } = await service.createCaller({ airtime: 1_000_000n });
      const unavailable = [
        { mobile: '254733000004', amount: '20' },
        { mobile: '254712000004', amount: '30' },
      ];
      const first = await send(token, { recipients: unavailable }, { key: 'send-unavailable' });
      expect(first.status).toBe(502);
      expect((await envelopeOf(first)).status.code).toBe('9000');
      const retry = await send(token, { recipients: unavailable }, { key: 'send-unavailable' });
      expect(retry.status).toBe(502);
      expect(retry.headers.get('idempotency-replayed')).toBeNull();
      await retry.arrayBuffer();
      expect((await transactionsOf(account.id)).map((row) => row.state)).toEqual([
        'cancelled',
        'cancelled',
        'cancelled',
        'cancelled',
      ]);
      // Given back, the key is free for another request altogether.
      const other = await send(token, { recipients }, { key: 'send-unavailable' });
      expect(other.headers.get('idempotency-replayed')).toBeNull();
      expect((await sent(other)).transactions).toHaveLength(2);
      expect((await service.ledger.balance(account.id, 'airtime')).availableMinor).toBe(1_000_000n - 8_000n);
    });
  });

  it('accepts 1,000 recipients and refuses 1,001 with one 3000 string', async () => {
    // Recipients ending 0002 are accepted and never answered, so the worker has nothing to do with them;
    // each amount is its place plus 10 (10 to 1,009), so the answer's order shows.
    const recipients = (count: number) =>
      Array.from({ length: count }, (_, index) => ({ mobile: '254733000002', amount: String(10 + index) }));
    const { token, account } = await service.createCaller({ airtime: 100_000_000n });
    const refused = await send(token, { recipients: recipients(1_001) });
    expect(refused.status).toBe(422);
    expect((await envelopeOf(refused)).data.errors).toEqual(["'recipients is invalid'"]);
    expect(await transactionsOf(account.id)).toEqual([]);
    expect((await service.ledger.balance(account.id, 'airtime')).availableMinor).toBe(100_000_000n);

    const accepted = await sent(await send(token, { recipients: recipients(1_000) }));
    expect(accepted.transactions.map((entry) => entry.amount)).toEqual(
      recipients(1_000).map((recipient) => recipient.amount),
    );
    expect(new Set(accepted.transactions.map((entry) => entry.reference)).size).toBe(1_000);
    // 10 + 11 + … + 1,009 = 509,500.00 reserved at once.
    expect(accepted.channel.balance).toBe('490500.00');
    expect((await service.ledger.balance(account.id, 'airtime')).availableMinor).toBe(49_050_000n);
    expect(await transactionsOf(account.id)).toHaveLength(1_000);
  }, 60_000);
});

describe.each(openTestStores())(
  'send_airtime to a network no provider serves, on $name',
  (stores: TestStores) => {
    let store: Store;
    let service: TestService;

    beforeAll(async () => {
      store = await stores.open();
      service = await startTestService(store, {
        env: {
          TOPUP_MODE: 'live',
          PROVIDERS: 'CarrierA=netalpha,CarrierB=netalpha',
          PUBLIC_BASE_URL: 'https://topup.example',
          PROVIDER_WEBHOOK_TOKEN: 'wh_routing_0123456789abcdef0123456789',
        },
        // A provider of the test's own under a live id: the simulator's protocol, another name.
        liveProviders: new Map([
          [
            'netalpha',
            ({ store: own }) => ({ ...createSandboxSimulator(own, { delayMs: 0 }), name: 'netalpha' }),
          ],
        ]),
      });
    });

    afterAll(async () => {
      await service.stop();
      await stores.close(store);
    });

    it('refuses the whole send with 5000 naming the network, reserving nothing', async () => {
      const { token, account } = await service.createCaller({ airtime: 1_000_000n });
      const response = await service.call('send_airtime', {
        token,
        json: {
          recipients: [
            { mobile: '254733000123', amount: '50' },
            { mobile: '254771000789', amount: '30' },
          ],
        },
      });
      expect(response.status).toBe(403);
      const envelope = await envelopeOf(response);
      expect(envelope.status).toEqual({ type: 'FAIL', code: '5000', message: 'Request Not Allowed' });
      expect(envelope.data.errors).toEqual([
        'network CarrierC is not served here: no provider is configured for it',
      ]);
      expect((await service.ledger.balance(account.id, 'airtime')).availableMinor).toBe(1_000_000n);
      const { rows } = await store.query<{ count: string }>(
        'SELECT count(*)::text AS count FROM transactions WHERE account_id = $1',
        [account.id],
      );
      expect(rows[0]?.count).toBe('0');
    });

    it('sends when every recipient’s network is served', async () => {
      const { token } = await service.createCaller({ airtime: 1_000_000n });
      const response = await service.call('send_airtime', {
        token,
        json: {
          recipients: [
            { mobile: '254733000123', amount: '50' },
            { mobile: '254712000456', amount: '30' },
          ],
        },
      });
      expect(response.status).toBe(200);
      expect((await envelopeOf(response)).data.transactions).toHaveLength(2);
    });
  },
);
