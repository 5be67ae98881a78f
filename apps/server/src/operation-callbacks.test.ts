// Both operations end to end, as a caller meets them: `buy_airtime` and `send_agent_float` over real HTTP
// with the worker running, and the callback at a real receiver on loopback. A completion arrives as
// SUCCESS/0000 with the delivered or deposited message, signed so that both `@topup/signing` and the
// Standard Webhooks reference library verify it, and names the reference the operation answered. A
// declined purchase or float (0001) and a purchase whose delivery fails after payment (0005) arrive as
// FAIL/8000 with the cancelled message, the reason in `errors` and the full transaction data, and the
// money is back. JSON and XML, for requests and for endpoints (docs/architecture.md, Decisions the code refers to).

import { decodeJsonEnvelope, decodeXmlEnvelope } from '@topup/envelope';
import type { ChannelName, Store } from '@topup/ledger';
import { verifyCallback } from '@topup/signing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { startCallbackSink } from './testing/callback-sink.js';
import type { ArrivedCallback } from './testing/callback-sink.js';
import { eventually } from './testing/eventually.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf, xmlBody } from './testing/wire.js';

type Operation = 'send_agent_float' | 'buy_airtime';
type Format = 'json' | 'xml';

interface Case {
  readonly name: string;
  readonly operation: Operation;
  /** How the operation is asked for and answered. */
  readonly request: Format;
  /** The endpoint's format: how the callback is sent. */
  readonly endpoint: Format;
  readonly fields: Readonly<Record<string, string>> & {
    readonly mobile: string;
    readonly amount: string;
    readonly name: string;
  };
}

const float = (mobile: string, amount = '250') => ({
  mobile,
  amount,
  name: 'Agent Baraka',
  agent_number: '300300',
  store_number: '400400',
});
const airtime = (recipient: string, payer: string) => ({
  mobile: recipient,
  amount: '50',
  name: 'Otieno',
  payment_network: 'MoneyNetB',
  payment_mobile: payer,
});

const channelOf = (operation: Operation): ChannelName =>
  operation === 'send_agent_float' ? 'float' : 'airtime';

const completions: readonly (Case & { readonly message: string })[] = [
  {
    name: 'airtime asked in JSON, sent in JSON',
    operation: 'buy_airtime',
    request: 'json',
    endpoint: 'json',
    fields: airtime('254733000123', '254722000456'),
    message: 'Airtime delivered',
  },
  {
    name: 'airtime asked in XML, sent in XML',
    operation: 'buy_airtime',
    request: 'xml',
    endpoint: 'xml',
    fields: airtime('254733000124', '254722000457'),
    message: 'Airtime delivered',
  },
  {
    name: 'a float asked in JSON, sent in XML',
    operation: 'send_agent_float',
    request: 'json',
    endpoint: 'xml',
    fields: float('254712345678'),
    message: 'Agent float deposited',
  },
  {
    name: 'a float asked in XML, sent in JSON',
    operation: 'send_agent_float',
    request: 'xml',
    endpoint: 'json',
    fields: float('254712345679', '300'),
    message: 'Agent float deposited',
  },
];

const cancellations: readonly (Case & {
  readonly message: string;
  readonly reason: string;
  /** What the ledger moved for it: a reservation and its void, nothing, or a payment and its refund. */
  readonly transfers: readonly string[];
})[] = [
  {
    name: 'a declined float (0001)',
    operation: 'send_agent_float',
    request: 'json',
    endpoint: 'json',
    fields: float('254712340001'),
    message: 'Agent Float Cancelled',
    reason: 'payment declined',
    transfers: ['float', 'float'],
  },
  {
    name: 'a purchase the payer declines (0001)',
    operation: 'buy_airtime',
    request: 'xml',
    endpoint: 'xml',
    fields: airtime('254733000125', '254722000001'),
    message: 'Purchase Cancelled',
    reason: 'payment declined',
    transfers: [],
  },
  {
    name: 'a purchase failed after payment (0005)',
    operation: 'buy_airtime',
    request: 'json',
    endpoint: 'xml',
    fields: airtime('254733000005', '254722000458'),
    message: 'Purchase Cancelled',
    reason: 'delivery failed after payment',
    transfers: ['airtime_collection', 'airtime_refund'],
  },
  {
    // A float has no payment leg that could fail after payment, so 0005 is a decline (docs/decisions.md).
    name: 'a float to a number ending 0005',
    operation: 'send_agent_float',
    request: 'xml',
    endpoint: 'json',
    fields: float('254712340005'),
    message: 'Agent Float Cancelled',
    reason: 'payment declined',
    transfers: ['float', 'float'],
  },
];

const callbackTimeoutMs = 15_000;

function headersOf(callback: ArrivedCallback): Record<string, string> {
  return Object.fromEntries(Object.entries(callback.headers).map(([name, value]) => [name, String(value)]));
}

describe.each(openTestStores())(
  'operation callbacks over HTTP with the worker running, on $name',
  (stores) => {
    let store: Store;
    let service: TestService;

    beforeAll(async () => {
      store = await stores.open();
      service = await startTestService(store, { worker: true });
    });

    afterAll(async () => {
      await service.stop();
      await stores.close(store);
    });

    /** A funded caller whose only endpoint, in `format`, is a fresh receiver: every callback there is theirs. */
    async function callerWithReceiver(format: Format) {
      const caller = await service.createCaller({ float: 1_000_000n, airtime: 1_000_000n });
      const sink = await startCallbackSink();
      onTestFinished(() => sink.close());
      const added = await envelopeOf(
        await service.call('add_callback_endpoint', { token: caller.token, json: { url: sink.url, format } }),
      );
      expect(added.status.code).toBe('0000');
      const { secret } = added.data.endpoint as { secret: string };
      return { ...caller, sink, secret };
    }

    /** What the ledger moved for a transaction, in order. */
    async function purposesOf(reference: string): Promise<string[]> {
      const { rows } = await store.query<{ purpose: string }>(
        'SELECT purpose FROM transfers WHERE reference = $1 ORDER BY id',
        [reference],
      );
      return rows.map((row) => row.purpose);
    }

    /** Asks for the operation in the case's format and returns the reference it answered. */
    async function requested({ operation, request, fields }: Case, token: string): Promise<string> {
      const type = request === 'json' ? 'application/json' : 'text/xml';
      const response = await service.call(operation, {
        token,
        body: request === 'json' ? JSON.stringify(fields) : xmlBody(fields),
        headers: { 'Content-Type': type, Accept: type },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(`${type}; charset=utf-8`);
      const answer = await envelopeOf(response);
      expect(answer.status.code).toBe('0000');
      const { reference } = answer.data.transaction as { reference: string };
      expect(reference).toMatch(/^TX[A-Z0-9]+$/);
      return reference;
    }

    /** The one callback the receiver got, after checking its signature with both libraries. */
    async function verifiedCallback(
      sink: { arrived: readonly ArrivedCallback[] },
      secret: string,
      format: Format,
    ) {
      const callback = await eventually('the callback', () => sink.arrived[0], callbackTimeoutMs);
      const headers = headersOf(callback);
      expect(headers['content-type']).toBe(
        format === 'json' ? 'application/json; charset=utf-8' : 'text/xml; charset=utf-8',
      );
      expect(verifyCallback({ secrets: [secret], headers, body: callback.body })).toMatchObject({
        ok: true,
        id: headers['webhook-id'],
      });
      // The reference library throws unless a webhook-signature matches; it parses JSON unless told not to.
      expect(() => new Webhook(secret).verify(callback.body, headers, { jsonParse: false })).not.toThrow();
      // A wrong secret is refused by both, so the checks above are not vacuous.
      const stranger = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
      expect(verifyCallback({ secrets: [stranger], headers, body: callback.body }).ok).toBe(false);
      expect(() => new Webhook(stranger).verify(callback.body, headers, { jsonParse: false })).toThrow();
      const envelope =
        format === 'json' ? decodeJsonEnvelope(callback.body) : decodeXmlEnvelope(callback.body);
      return envelope as typeof envelope & { data: Record<string, Record<string, string>> };
    }

    it.each(completions)(
      'calls back $name with a SUCCESS/0000 that both signature libraries verify, naming the answered reference',
      async (scenario) => {
        const caller = await callerWithReceiver(scenario.endpoint);
        const channel = channelOf(scenario.operation);
        const before = await service.ledger.balance(caller.account.id, channel);
        const reference = await requested(scenario, caller.token);

        const callback = await verifiedCallback(caller.sink, caller.secret, scenario.endpoint);
        expect(callback.status).toEqual({ type: 'SUCCESS', code: '0000', message: scenario.message });
        expect(callback.data.errors).toEqual([]);
        expect(callback.data.transaction).toMatchObject({
          reference,
          state: 'completed',
          amount: scenario.fields.amount,
        });
        expect(callback.data.recipient?.mobile).toBe(scenario.fields.mobile);

        const found = await envelopeOf(
          await service.call('get_transaction', { token: caller.token, json: { reference } }),
        );
        expect(found.data.transaction).toMatchObject({ reference, state: 'completed' });
        const after = await service.ledger.balance(caller.account.id, channel);
        if (channel === 'float') {
          // The reservation is posted: the amount has left the float channel for good.
          expect(before.postedMinor - after.postedMinor).toBe(BigInt(scenario.fields.amount) * 100n);
          expect(after.pendingMinor).toBe(before.pendingMinor);
          expect(await purposesOf(reference)).toEqual(['float', 'float']);
        } else {
          // The payer's payment is collected and paid on to the carrier (no commission is configured).
          expect(after).toEqual(before);
          expect(await purposesOf(reference)).toEqual(['airtime_collection', 'airtime_payout']);
        }
        expect((await service.ledger.verify()).ok).toBe(true);
        expect(caller.sink.arrived).toHaveLength(1);
      },
      30_000,
    );

    it.each(cancellations)(
      'calls back $name with FAIL/8000, the reason, the full transaction data, and the money back',
      async (scenario) => {
        const caller = await callerWithReceiver(scenario.endpoint);
        const channel = channelOf(scenario.operation);
        const before = await service.ledger.balance(caller.account.id, channel);
        const reference = await requested(scenario, caller.token);

        const callback = await verifiedCallback(caller.sink, caller.secret, scenario.endpoint);
        expect(callback.status).toEqual({ type: 'FAIL', code: '8000', message: scenario.message });
        expect(callback.data.errors).toEqual([scenario.reason]);
        // The operation's data objects, but no `payment`: the spec's airtime callback carries none.
        expect(Object.keys(callback.data)).toEqual([
          'errors',
          'sender',
          'recipient',
          'transaction',
          'messaging',
          'channel',
        ]);
        expect(callback.data.transaction).toMatchObject({
          reference,
          status: 'Cancelled',
          state: 'cancelled',
          amount: scenario.fields.amount,
          currency: 'KES',
        });
        expect(callback.data.recipient).toMatchObject({
          mobile: scenario.fields.mobile,
          name: scenario.fields.name,
        });

        const found = await envelopeOf(
          await service.call('get_transaction', { token: caller.token, json: { reference } }),
        );
        expect(found.data.transaction).toMatchObject({ reference, state: 'cancelled', status: 'Cancelled' });
        expect(await service.ledger.balance(caller.account.id, channel)).toEqual(before);
        expect(await purposesOf(reference)).toEqual(scenario.transfers);
        const balances = await envelopeOf(await service.call('get_balance', { token: caller.token }));
        expect(balances.data.channels).toContainEqual(
          expect.objectContaining({
            type: channel === 'float' ? 'Agent Float' : 'Airtime',
            balance: '10000.00',
          }),
        );
        expect((await service.ledger.verify()).ok).toBe(true);
        expect(caller.sink.arrived).toHaveLength(1);
      },
      30_000,
    );
  },
);
