// Success data in the shapes the service answers, for scripted replies and signed callbacks.

import type {
  AgentFloatData,
  AirtimeData,
  BalanceData,
  SendAirtimeData,
  StatementData,
  TransactionsData,
} from '@topup/envelope';

export function airtimeData(reference = 'TXA3P8L1ZD'): AirtimeData {
  return {
    sender: { name: 'Duka Supplies & Co', mobile: '254722000001', email: 'airtime@duka.example' },
    recipient: { name: 'Wanjikũ "Shiro" O\'Neill', mobile: '254733123456', email: 'shiro@mail.example' },
    payment: { network: 'MoneyNetA', name: 'Otieno <Payer>', mobile: '254711222333', email: '' },
    transaction: {
      type: 'Airtime',
      reference,
      date: '2025-11-21 14:06:30',
      status: 'Requested',
      state: 'requested',
      currency: 'KES',
      amount: '50',
      note: '',
      code: '',
      source: 'API',
      country: 'KE',
      network: 'CarrierB',
    },
    messaging: { sender: '', recipient: '', message: '' },
    channel: { type: 'Airtime', currency: 'KES', balance: '1500.00' },
  };
}

/** Two recipients: the first requested, the second refused by its carrier at once. */
export function sendAirtimeData(): SendAirtimeData {
  return {
    sender: { name: 'Duka Supplies & Co', mobile: '254722000001', email: 'airtime@duka.example' },
    transactions: [
      {
        reference: 'TXS1A2B3C4',
        recipient: { name: 'Wanjikũ "Shiro" O\'Neill', mobile: '254733123456', email: '' },
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
        reference: 'TXS5D6E7F8',
        recipient: { name: '', mobile: '254712340003', email: '' },
        currency: 'KES',
        amount: '20',
        country: 'KE',
        network: 'CarrierA',
        status: 'Cancelled',
        state: 'cancelled',
        code: 'R01',
        errors: ['recipient <254712340003> refused by the carrier'],
      },
    ],
    messaging: { sender: '', recipient: '', message: '' },
    channel: { type: 'Airtime', currency: 'KES', balance: '1450.00' },
  };
}

export function agentFloatData(reference = 'TXF7K2M9QA'): AgentFloatData {
  const agent = {
    name: 'Wanjiku Agency',
    mobile: '254712345678',
    email: '',
    agent_name: 'Wanjiku Agency',
    agent_number: '234567',
    store_number: '765432',
  };
  return {
    sender: { ...agent, name: 'Duka Supplies & Co', mobile: '254722000001', email: 'float@duka.example' },
    recipient: agent,
    transaction: {
      type: 'Agent Float',
      reference,
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
  };
}

export function balanceData(): BalanceData {
  return {
    channels: [
      { type: 'Agent Float', currency: 'KES', balance: '98500.00' },
      { type: 'Airtime', currency: 'KES', balance: '1500.05' },
    ],
  };
}

/** A page of two transactions, a float and a purchase, with the cursor of the next page. */
export function transactionsData(): TransactionsData {
  const float = agentFloatData();
  const airtime = airtimeData();
  return {
    transactions: [
      { transaction: airtime.transaction, recipient: airtime.recipient, payment: airtime.payment },
      { transaction: float.transaction, recipient: float.recipient },
    ],
    next_cursor: 'WyJ0IiwiMTc2MzcyMzEwOTAwMDAwMCIsIlRYRjdLMk05UUEiXQ',
  };
}

/** The last page of an Agent Float statement: funding, then a float sent. */
export function statementData(): StatementData {
  return {
    channel: { type: 'Agent Float', currency: 'KES', balance: '98500.00' },
    postings: [
      {
        id: '4097',
        date: '2025-11-21 14:05:10',
        reference: 'TXF7K2M9QA',
        purpose: 'float',
        amount: '-1500.00',
        balance_before: '100000.00',
        balance_after: '98500.00',
      },
      {
        id: '4096',
        date: '2025-11-21 14:00:00',
        reference: '',
        purpose: 'funding',
        amount: '100000.00',
        balance_before: '0.00',
        balance_after: '100000.00',
      },
    ],
    next_cursor: '',
  };
}
