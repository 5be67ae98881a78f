import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ListedTransaction, StatementPosting } from '@topup/envelope';
import type { Store } from '@topup/ledger';
import { encodeStatementCursor } from '@topup/validation';
import { statementData, transactionsData } from './response-schemas.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf, xmlBody } from './testing/wire.js';

const formats = [
  { name: 'JSON', type: 'application/json', body: JSON.stringify },
  { name: 'XML', type: 'text/xml', body: xmlBody },
] as const;

describe.each(openTestStores())('list_transactions and list_statement on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let token: string;
  let otherToken: string;
  let float: string;
  let purchase: string;
  let sent: string[];

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store);
    ({ token } = await service.createCaller({ float: 10_000_000n, airtime: 1_000_000n }));
    ({ token: otherToken } = await service.createCaller({ float: 10_000_000n }));
    const reference = async (response: Response) =>
      ((await envelopeOf(response)).data.transaction as { reference: string }).reference;
    float = await reference(
      await service.call('send_agent_float', {
        token,
        json: { mobile: '0733000123', amount: '1500', name: 'Wanjiku Agency' },
        headers: { 'Idempotency-Key': 'order-1042' },
      }),
    );
    purchase = await reference(
      await service.call('buy_airtime', {
        token,
        json: {
          mobile: '254712000456',
          amount: '50',
          payment_network: 'MoneyNetB',
          payment_mobile: '254722000789',
        },
      }),
    );
    const send = await envelopeOf(
      await service.call('send_airtime', {
        token,
        json: {
          recipients: [
            { mobile: '254733000124', amount: '40' },
            { mobile: '254733000125', amount: '60' },
          ],
        },
        headers: { 'Idempotency-Key': 'payroll-11' },
      }),
    );
    sent = (send.data.transactions as { reference: string }[]).map((entry) => entry.reference);
    await service.ledger.complete(float, { providerCode: 'MNA-1' });
    await service.ledger.complete(purchase, { providerCode: 'CB-1' });
    await service.ledger.complete(sent[0] ?? '', { providerCode: 'CB-2' });
    await service.ledger.cancel(sent[1] ?? '', { reason: 'declined' });
    await service.call('send_agent_float', {
      token: otherToken,
      json: { mobile: '0733000123', amount: '100' },
    });
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  describe.each(formats)('in $name', (format) => {
    const call = async (name: string, fields: Record<string, string>, as = token) => {
      const response = await service.call(name, {
        token: as,
        body: format.body(fields),
        headers: { 'Content-Type': format.type, Accept: format.type },
      });
      expect(response.headers.get('content-type')).toContain(format.type);
      return { status: response.status, envelope: await envelopeOf(response) };
    };

    const listed = async (fields: Record<string, string>, as = token) => {
      const entries: ListedTransaction[] = [];
      let cursor = '';
      do {
        const { envelope } = await call(
          'list_transactions',
          { ...fields, ...(cursor === '' ? {} : { cursor }) },
          as,
        );
        expect(envelope.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Transactions found' });
        expect(transactionsData.safeParse(envelope.data).error).toBeUndefined();
        entries.push(...(envelope.data.transactions as ListedTransaction[]));
        cursor = envelope.data.next_cursor as string;
      } while (cursor !== '');
      return entries;
    };
    const references = (entries: readonly ListedTransaction[]) =>
      entries.map((entry) => entry.transaction.reference);

    it('lists the caller’s transactions newest first, one page at a time, each as get_transaction shows it', async () => {
      const entries = await listed({ limit: '1' });
      expect(references(entries).sort()).toEqual([float, purchase, ...sent].sort());
      const dates = entries.map((entry) => entry.transaction.date);
      expect(dates).toEqual([...dates].sort().reverse());
      for (const entry of entries) {
        const { envelope } = await call('get_transaction', { reference: entry.transaction.reference });
        const found = envelope.data as Record<string, unknown>;
        expect(entry).toEqual({
          transaction: found.transaction,
          recipient: found.recipient,
          ...('payment' in found ? { payment: found.payment } : {}),
        });
      }
      const bought = entries.find((entry) => entry.transaction.reference === purchase);
      expect(bought?.payment).toMatchObject({ network: 'MoneyNetB', mobile: '254722000789' });
      expect(entries.find((entry) => entry.transaction.reference === float)?.recipient).toMatchObject({
        name: 'Wanjiku Agency',
        agent_number: '',
      });
    });

    it('keeps what each filter names', async () => {
      expect(references(await listed({ type: 'Agent Float' }))).toEqual([float]);
      expect(references(await listed({ type: 'Airtime', state: 'cancelled' }))).toEqual([sent[1]]);
      expect(references(await listed({ reference: purchase }))).toEqual([purchase]);
      expect(references(await listed({ idempotency_key: 'order-1042' }))).toEqual([float]);
      expect(references(await listed({ idempotency_key: 'payroll-11' })).sort()).toEqual([...sent].sort());
      // The payer's mobile, written as a caller may write it.
      expect(references(await listed({ mobile: '+254 722 000 789' }))).toEqual([purchase]);
      expect(references(await listed({ mobile: '0733000124' }))).toEqual([sent[0]]);
      expect(await listed({ from: '2999-01-01' })).toEqual([]);
      expect((await listed({ to: '2999-01-01T00:00:00+03:00' })).length).toBe(4);
    });

    it('shows nothing of another caller’s, whatever it names', async () => {
      expect(references(await listed({}, otherToken))).toHaveLength(1);
      expect(await listed({ reference: float }, otherToken)).toEqual([]);
      expect(await listed({ idempotency_key: 'order-1042' }, otherToken)).toEqual([]);
      expect(await listed({ mobile: '0722000789' }, otherToken)).toEqual([]);
    });

    it('answers bad filters with 3000, one problem per field', async () => {
      const { status, envelope } = await call('list_transactions', {
        state: 'Completed',
        to: '2025-13-01',
        idempotency_key: 'a key',
        cursor: encodeStatementCursor({ postingId: '1' }),
      });
      expect(status).toBe(422);
      expect(envelope.data.errors).toEqual([
        "'state is invalid'",
        "'to is invalid'",
        "'idempotency_key is invalid'",
        "'cursor is invalid'",
      ]);
    });

    it.each(['Agent Float', 'Airtime'])(
      'answers the %s statement, balances chaining to the channel’s, amounts signed with two decimals',
      async (channel) => {
        const postings: StatementPosting[] = [];
        let cursor = '';
        let shown: unknown;
        do {
          const { envelope } = await call('list_statement', {
            channel,
            limit: '2',
            ...(cursor === '' ? {} : { cursor }),
          });
          expect(envelope.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Statement found' });
          expect(statementData.safeParse(envelope.data).error).toBeUndefined();
          shown ??= envelope.data.channel;
          postings.push(...(envelope.data.postings as StatementPosting[]));
          cursor = envelope.data.next_cursor as string;
        } while (cursor !== '');
        const { envelope: balance } = await call('get_balance', {});
        expect(shown).toEqual((balance.data.channels as { type: string }[]).find((c) => c.type === channel));
        expect(postings[0]?.balance_after).toBe((shown as { balance: string }).balance);
        expect(postings.at(-1)).toMatchObject({ purpose: 'funding', reference: '', balance_before: '0.00' });
        const cents = (text: string) => Math.round(Number(text) * 100);
        for (const [index, posting] of postings.entries()) {
          expect(cents(posting.balance_after) - cents(posting.balance_before)).toBe(cents(posting.amount));
          const older = postings[index + 1];
          if (older !== undefined) expect(older.balance_after).toBe(posting.balance_before);
        }
        if (channel === 'Agent Float') {
          expect(postings[0]).toMatchObject({ reference: float, purpose: 'float', amount: '-1500.00' });
        } else {
          expect(postings.map((posting) => posting.purpose)).toEqual([
            'airtime_payout',
            'airtime_payout',
            'airtime_collection',
            'funding',
          ]);
        }
      },
    );

    it('answers a bad statement request with 3000, and a transactions cursor as an invalid one', async () => {
      const { envelope: first } = await call('list_transactions', { limit: '1' });
      const { status, envelope } = await call('list_statement', {
        channel: 'float',
        from: 'last week',
        cursor: first.data.next_cursor as string,
      });
      expect(status).toBe(422);
      expect(envelope.data.errors).toEqual([
        "'channel is invalid'",
        "'from is invalid'",
        "'cursor is invalid'",
      ]);
    });
  });
});
