import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@topup/ledger';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf, xmlBody } from './testing/wire.js';

const floatFields = {
  mobile: '0712 000 123',
  amount: '500',
  name: 'Jane Wanjiku',
  email: 'jane@example.com',
  agent_name: 'Jane Shop',
  agent_number: '123456',
  store_number: '654321',
  note: 'first float',
};

const airtimeFields = {
  mobile: '+254733000123',
  name: 'Otieno',
  amount: '50',
  payment_network: 'MoneyNetB',
  payment_name: 'Achieng',
  payment_mobile: '254722000456',
  payment_email: 'achieng@example.com',
};

const acme = {
  name: 'Acme Agencies',
  mobile: '254700000100',
  email: 'ops@acme.example',
  agent_name: 'Acme Till',
  agent_number: '100100',
  store_number: '200200',
};

/** A golden answer with its volatile fields checked by pattern: a reference and a Nairobi time. */
function goldenPattern(file: string): RegExp {
  const text = readFileSync(new URL(`./fixtures/${file}`, import.meta.url), 'utf8');
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${escaped
      .replace('\\{\\{reference\\}\\}', '[A-Z0-9]{8,32}')
      .replace('\\{\\{date\\}\\}', '\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}')}$`,
  );
}

const cases = [
  { format: 'JSON', accept: 'application/json', contentType: 'application/json', extension: 'json' },
  { format: 'XML', accept: 'text/xml', contentType: 'text/xml', extension: 'xml' },
] as const;

function encode(contentType: string, fields: Record<string, string>): string {
  return contentType === 'text/xml' ? xmlBody(fields) : JSON.stringify(fields);
}

describe.each(openTestStores())('both operations end to end on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store);
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  describe.each(cases)('answered in $format', (format) => {
    it('answers send_agent_float exactly as the golden response', async () => {
      const { token } = await service.createCaller({ float: 10_000_000n }, acme);
      const response = await service.call('send_agent_float', {
        token,
        body: encode(format.contentType, floatFields),
        headers: { Accept: format.accept, 'Content-Type': format.contentType },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe(`${format.accept}; charset=utf-8`);
      expect(await response.text()).toMatch(
        goldenPattern(`send-agent-float-success.${format.extension}.golden`),
      );
    });

    it('answers buy_airtime exactly as the golden response', async () => {
      const { token } = await service.createCaller({}, acme);
      const response = await service.call('buy_airtime', {
        token,
        body: encode(format.contentType, airtimeFields),
        headers: { Accept: format.accept, 'Content-Type': format.contentType },
      });
      expect(response.status).toBe(200);
      expect(await response.text()).toMatch(goldenPattern(`buy-airtime-success.${format.extension}.golden`));
    });
  });

  it('answers a JSON request in XML and an XML request in JSON', async () => {
    const { token } = await service.createCaller({ float: 10_000_000n });
    const xmlAnswer = await service.call('send_agent_float', {
      token,
      json: floatFields,
      headers: { Accept: 'text/xml' },
    });
    expect(xmlAnswer.headers.get('content-type')).toContain('text/xml');
    expect((await envelopeOf(xmlAnswer)).status.code).toBe('0000');
    const jsonAnswer = await service.call('send_agent_float', {
      token,
      body: xmlBody(floatFields),
      headers: { 'Content-Type': 'application/xml' },
    });
    expect(jsonAnswer.headers.get('content-type')).toContain('application/json');
    expect((await envelopeOf(jsonAnswer)).status.code).toBe('0000');
  });

  it.each([
    ['application/xml', 'application/xml; charset=utf-8'],
    ['text/xml', 'text/xml; charset=utf-8'],
    ['application/json;q=0.5, application/xml', 'application/xml; charset=utf-8'],
    ['*/*', 'application/json; charset=utf-8'],
  ])('answers Accept: %s with Content-Type: %s, success or failure', async (accept, contentType) => {
    const { token } = await service.createCaller({});
    const refused = await service.call('send_agent_float', { token, json: {}, headers: { Accept: accept } });
    expect(refused.headers.get('content-type')).toBe(contentType);
    expect((await envelopeOf(refused)).status.code).toBe('3000');
    const balance = await service.call('get_balance', { token, headers: { Accept: accept } });
    expect(balance.headers.get('content-type')).toBe(contentType);
    expect((await envelopeOf(balance)).status.code).toBe('0000');
  });

  it('detects network, country and currency from the mobile number', async () => {
    const { token } = await service.createCaller({ float: 10_000_000n });
    const response = await service.call('send_agent_float', {
      token,
      json: { mobile: '254733000123', amount: 1000 },
    });
    const envelope = await envelopeOf(response);
    expect(envelope.data.transaction).toMatchObject({ network: 'MoneyNetB', country: 'KE', currency: 'KES' });
  });

  it('fills a blank recipient name and e-mail from the caller’s contacts', async () => {
    const { token } = await service.createCaller({ float: 10_000_000n });
    await (await service.call('send_agent_float', { token, json: floatFields })).arrayBuffer();
    const response = await service.call('send_agent_float', {
      token,
      json: { mobile: floatFields.mobile, amount: '100', agent_number: '123456', store_number: '654321' },
    });
    const envelope = await envelopeOf(response);
    expect(envelope.data.recipient).toMatchObject({ name: 'Jane Wanjiku', email: 'jane@example.com' });
  });

  it('fills a blank airtime recipient and payer name and e-mail from the caller’s contacts', async () => {
    const { token } = await service.createCaller();
    const first = await service.call('buy_airtime', {
      token,
      json: { ...airtimeFields, email: 'otieno@example.com' },
    });
    expect(first.status).toBe(200);
    await first.arrayBuffer();
    const response = await service.call('buy_airtime', {
      token,
      json: {
        mobile: '254733000123',
        amount: '20',
        payment_network: 'MoneyNetB',
        payment_mobile: '0722 000 456',
      },
    });
    const envelope = await envelopeOf(response);
    expect(envelope.status.code).toBe('0000');
    expect(envelope.data.recipient).toMatchObject({ name: 'Otieno', email: 'otieno@example.com' });
    expect(envelope.data.payment).toMatchObject({ name: 'Achieng', email: 'achieng@example.com' });
  });

  it('shows the right balance in every answer after concurrent float requests', async () => {
    const { token, account } = await service.createCaller({ float: 1_000_000n });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () =>
        service.call('send_agent_float', { token, json: { mobile: '254733000123', amount: '100' } }),
      ),
    );
    const balances = await Promise.all(
      responses.map(async (response) => {
        expect(response.status).toBe(200);
        const envelope = await envelopeOf(response);
        return (envelope.data.channel as { balance: string }).balance;
      }),
    );
    const expected = Array.from({ length: 20 }, (_, i) => `${9_900 - i * 100}.00`);
    expect([...balances].sort((a, b) => Number(b) - Number(a))).toEqual(expected);
    expect((await service.ledger.balance(account.id, 'float')).availableMinor).toBe(800_000n);
  });

  it('refuses text XML cannot carry with 3000 before reserving float, even when the answer is XML', async () => {
    const { token, account } = await service.createCaller({ float: 1_000_000n });
    for (const name of ['a\u0001b', 'a\u0000b']) {
      const response = await service.call('send_agent_float', {
        token,
        json: { ...floatFields, name },
        headers: { Accept: 'text/xml' },
      });
      expect(response.status).toBe(422);
      const envelope = await envelopeOf(response);
      expect(envelope.status.code).toBe('3000');
      expect(envelope.data.errors).toEqual(["'name is invalid'"]);
    }
    expect((await service.ledger.balance(account.id, 'float')).availableMinor).toBe(1_000_000n);
  });

  it('answers get_balance with both channels and the balance-found text', async () => {
    const { token } = await service.createCaller({ float: 123_456n, airtime: 700n });
    const envelope = await envelopeOf(await service.call('get_balance', { token }));
    expect(envelope.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Balance found' });
    expect(envelope.data.channels).toEqual([
      { type: 'Agent Float', currency: 'KES', balance: '1234.56' },
      { type: 'Airtime', currency: 'KES', balance: '7.00' },
    ]);
  });

  it('answers get_transaction with the transaction the operation created', async () => {
    const { token } = await service.createCaller({ float: 10_000_000n });
    const created = await envelopeOf(await service.call('send_agent_float', { token, json: floatFields }));
    const reference = (created.data.transaction as { reference: string }).reference;
    const found = await envelopeOf(await service.call('get_transaction', { token, json: { reference } }));
    expect(found.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Transaction found' });
    expect(found.data.transaction).toMatchObject({ reference, type: 'Agent Float', amount: '500' });
  });

  it('answers list_transactions and list_statement with what the operation created and posted', async () => {
    const { token } = await service.createCaller({ float: 10_000_000n });
    const created = await envelopeOf(await service.call('send_agent_float', { token, json: floatFields }));
    const reference = (created.data.transaction as { reference: string }).reference;
    await service.ledger.complete(reference, { providerCode: 'MNA-1' });
    const listed = await envelopeOf(await service.call('list_transactions', { token }));
    expect(listed.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Transactions found' });
    expect(listed.data).toMatchObject({
      errors: [],
      transactions: [{ transaction: { reference, state: 'completed' }, recipient: created.data.recipient }],
      next_cursor: '',
    });
    const statement = await envelopeOf(
      await service.call('list_statement', { token, json: { channel: 'Agent Float' } }),
    );
    expect(statement.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Statement found' });
    expect(statement.data.channel).toEqual({ type: 'Agent Float', currency: 'KES', balance: '99500.00' });
    expect(statement.data.postings).toMatchObject([
      {
        reference,
        purpose: 'float',
        amount: '-500.00',
        balance_before: '100000.00',
        balance_after: '99500.00',
      },
      { reference: '', purpose: 'funding', amount: '100000.00', balance_before: '0.00' },
    ]);
  });
});
