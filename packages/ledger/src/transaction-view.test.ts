import { describe, expect, it } from 'vitest';
import type { Account } from './accounts.js';
import { callbackPayload } from './callback-payload.js';
import type { ChannelBalance } from './ledger-accounts.js';
import type { TransactionRecord } from './transaction-record.js';
import { channelView, transactionData } from './transaction-view.js';

const sender: Account = {
  id: 'acct_1',
  name: 'Duka Supplies & Co',
  mobile: '254722000001',
  email: 'float@duka.example',
  agent_name: 'Duka Supplies',
  agent_number: '123456',
  store_number: '654321',
  status: 'active',
  createdAt: new Date('2025-01-01T00:00:00Z'),
  updatedAt: new Date('2025-01-01T00:00:00Z'),
};

const floatRecord: TransactionRecord = {
  reference: 'TXF7K2M9QA0000',
  accountId: 'acct_1',
  type: 'Agent Float',
  state: 'requested',
  status: 'Requested',
  date: '2025-11-21 14:05:09',
  createdAt: new Date('2025-11-21T11:05:09Z'),
  amountMinor: 150_000n,
  currency: 'KES',
  country: 'KE',
  network: 'MoneyNetA',
  note: 'INV-2025-0042',
  code: '',
  source: 'API',
  recipient: {
    name: 'Wanjiku Agency',
    mobile: '254712345678',
    email: '',
    agent_name: 'Wanjiku Agency',
    agent_number: '234567',
    store_number: '765432',
  },
  payment: undefined,
  sender: { name: 'Old Name', mobile: '', email: '', agent_name: '', agent_number: '', store_number: '' },
  messaging: { sender: '', recipient: '', message: '' },
  cancelReason: '',
  submittedAt: undefined,
  resolvedAt: undefined,
};

const airtimeRecord: TransactionRecord = {
  ...floatRecord,
  reference: 'TXA3P8L1ZD0000',
  type: 'Airtime',
  network: 'CarrierB',
  amountMinor: 5_000n,
  note: '',
  recipient: {
    name: 'Shiro',
    mobile: '254733123456',
    email: 'shiro@mail.example',
    agent_name: '',
    agent_number: '',
    store_number: '',
  },
  payment: { network: 'MoneyNetA', name: 'Otieno', mobile: '254711222333', email: '' },
};

const floatChannel: ChannelBalance = {
  channel: 'float',
  currency: 'KES',
  postedMinor: 10_000_000n,
  pendingMinor: 150_000n,
  availableMinor: 9_850_000n,
};

describe('channelView', () => {
  it('shows the available balance with two decimals under the channel name', () => {
    expect(channelView(floatChannel)).toEqual({ type: 'Agent Float', currency: 'KES', balance: '98500.00' });
    expect(channelView({ ...floatChannel, channel: 'airtime', availableMinor: 5n })).toEqual({
      type: 'Airtime',
      currency: 'KES',
      balance: '0.05',
    });
  });
});

describe('transactionData', () => {
  it('maps an agent float to the wire model, fields in the order of the contract', () => {
    const data = transactionData(floatRecord, floatChannel, sender);
    expect(JSON.stringify(data)).toBe(
      JSON.stringify({
        sender: {
          name: 'Duka Supplies & Co',
          mobile: '254722000001',
          email: 'float@duka.example',
          agent_name: 'Duka Supplies',
          agent_number: '123456',
          store_number: '654321',
        },
        recipient: floatRecord.recipient,
        transaction: {
          type: 'Agent Float',
          reference: 'TXF7K2M9QA0000',
          date: '2025-11-21 14:05:09',
          status: 'Requested',
          state: 'requested',
          currency: 'KES',
          amount: '1500',
          note: 'INV-2025-0042',
          code: '',
          source: 'API',
          country: 'KE',
          network: 'MoneyNetA',
        },
        messaging: { sender: '', recipient: '', message: '' },
        channel: { type: 'Agent Float', currency: 'KES', balance: '98500.00' },
      }),
    );
  });

  it('maps an airtime purchase with the payer and a sender of three fields', () => {
    const data = transactionData(
      airtimeRecord,
      { ...floatChannel, channel: 'airtime', availableMinor: 150_000n },
      sender,
    );
    expect(Object.keys(data)).toEqual([
      'sender',
      'recipient',
      'payment',
      'transaction',
      'messaging',
      'channel',
    ]);
    expect(data.sender).toEqual({
      name: 'Duka Supplies & Co',
      mobile: '254722000001',
      email: 'float@duka.example',
    });
    expect(data.recipient).toEqual({ name: 'Shiro', mobile: '254733123456', email: 'shiro@mail.example' });
    expect('payment' in data && data.payment).toEqual({
      network: 'MoneyNetA',
      name: 'Otieno',
      mobile: '254711222333',
      email: '',
    });
    expect(data.transaction).toMatchObject({ type: 'Airtime', amount: '50', network: 'CarrierB' });
    expect(data.channel).toEqual({ type: 'Airtime', currency: 'KES', balance: '1500.00' });
  });

  it('never shares objects with the record it was built from', () => {
    const data = transactionData(floatRecord, floatChannel, sender);
    data.recipient.name = 'changed';
    expect(floatRecord.recipient.name).toBe('Wanjiku Agency');
  });
});

describe('callbackPayload', () => {
  it("uses the transaction's own sender snapshot and leaves the payer out of an airtime callback", () => {
    const payload = JSON.parse(
      callbackPayload({ ...airtimeRecord, state: 'completed' }, { ...floatChannel, channel: 'airtime' }),
    ) as { status: unknown; data: Record<string, unknown> };
    expect(payload.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Airtime delivered' });
    expect(Object.keys(payload.data)).toEqual([
      'errors',
      'sender',
      'recipient',
      'transaction',
      'messaging',
      'channel',
    ]);
    expect(payload.data.sender).toEqual({ name: 'Old Name', mobile: '', email: '' });
  });

  it('carries the cancellation reason in errors, with the float-cancelled message', () => {
    const payload = JSON.parse(
      callbackPayload(
        { ...floatRecord, state: 'cancelled', status: 'Cancelled', cancelReason: 'agent unknown' },
        floatChannel,
      ),
    ) as { status: unknown; data: { errors: unknown } };
    expect(payload.status).toEqual({ type: 'FAIL', code: '8000', message: 'Agent Float Cancelled' });
    expect(payload.data.errors).toEqual(['agent unknown']);
  });

  it('refuses to build a callback for a transaction still requested', () => {
    expect(() => callbackPayload(floatRecord, floatChannel)).toThrow(
      /Expected a completed or cancelled transaction/,
    );
  });
});
