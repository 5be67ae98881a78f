// The one mapping from a ledger record to the wire model (`TransactionData`), used by
// responses, `get_transaction` and callbacks alike, so they can never disagree.

import type {
  AgentParty,
  Carrier,
  Channel,
  ListedTransaction,
  MoneyNetwork,
  Party,
  SendAirtimeData,
  SentAirtimeData,
  SentAirtimeEntry,
  Transaction,
  TransactionData,
  TransactionType,
} from '@topup/envelope';
import type { Account } from './accounts.js';
import type { ChannelBalance } from './ledger-accounts.js';
import { formatMinor, minorToWholeUnits } from './money.js';
import type { TransactionRecord } from './transaction-record.js';

/**
 * The `channel` object: `Agent Float` or `Airtime`, its currency and the available balance.
 *
 * @example
 * ```ts
 * import { channelView } from '@topup/ledger';
 *
 * channelView({
 *   channel: 'float',
 *   currency: 'KES',
 *   postedMinor: 5_000_000n,
 *   pendingMinor: 150_000n,
 *   availableMinor: 4_850_000n,
 * });
 * // { type: 'Agent Float', currency: 'KES', balance: '48500.00' }
 * ```
 */
export function channelView(balance: ChannelBalance): Channel {
  return {
    type: balance.channel === 'float' ? 'Agent Float' : 'Airtime',
    currency: balance.currency,
    balance: formatMinor(balance.availableMinor),
  };
}

/** The sender object of a transaction made by this account. */
export function senderOf(account: Account): AgentParty {
  return {
    name: account.name,
    mobile: account.mobile,
    email: account.email,
    agent_name: account.agent_name,
    agent_number: account.agent_number,
    store_number: account.store_number,
  };
}

function party(agent: AgentParty): Party {
  return { name: agent.name, mobile: agent.mobile, email: agent.email };
}

function wireTransaction<T extends TransactionType, N extends MoneyNetwork | Carrier>(
  type: T,
  network: N,
  record: TransactionRecord,
): Transaction & { type: T; network: N } {
  return {
    type,
    reference: record.reference,
    date: record.date,
    status: record.status,
    state: record.state,
    currency: record.currency,
    amount: minorToWholeUnits(record.amountMinor),
    note: record.note,
    code: record.code,
    source: record.source,
    country: record.country,
    network,
  };
}

/** The wire data of a transaction from a sender party; the record's own snapshot for callbacks. */
export function transactionDataFrom(
  record: TransactionRecord,
  channel: ChannelBalance,
  sender: AgentParty,
): TransactionData {
  if (record.type === 'Airtime') {
    const sent: SentAirtimeData = {
      sender: party(sender),
      recipient: party(record.recipient),
      transaction: wireTransaction('Airtime', record.network as Carrier, record),
      messaging: { ...record.messaging },
      channel: channelView(channel),
    };
    // Airtime sent from the caller's balance has no payer, so it shows no `payment` object.
    const payment = record.payment;
    if (payment === undefined) return sent;
    return {
      sender: sent.sender,
      recipient: sent.recipient,
      payment: { ...payment },
      transaction: sent.transaction,
      messaging: sent.messaging,
      channel: sent.channel,
    };
  }
  return {
    sender: { ...sender },
    recipient: { ...record.recipient },
    transaction: wireTransaction('Agent Float', record.network as MoneyNetwork, record),
    messaging: { ...record.messaging },
    channel: channelView(channel),
  };
}

/**
 * A transaction as `list_transactions` shows it: the `transaction`, `recipient` and (for a purchase, which
 * has a payer) `payment` objects its `get_transaction` answer holds.
 *
 * @example
 * ```ts
 * import { createLedger, listedTransaction, openStore } from '@topup/ledger';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * const { transactions } = await ledger.listTransactions(account.id, { type: 'Airtime' });
 * const entries = transactions.map(listedTransaction);
 * ```
 */
export function listedTransaction(record: TransactionRecord): ListedTransaction {
  if (record.type === 'Agent Float') {
    return {
      transaction: wireTransaction('Agent Float', record.network as MoneyNetwork, record),
      recipient: { ...record.recipient },
    };
  }
  const transaction = wireTransaction('Airtime', record.network as Carrier, record);
  const recipient = party(record.recipient);
  return record.payment === undefined
    ? { transaction, recipient }
    : { transaction, recipient, payment: { ...record.payment } };
}

/**
 * The wire data (`sender`, `recipient`, [`payment`], `transaction`, `messaging`, `channel`).
 *
 * @example
 * ```ts
 * import { parseSendAgentFloat } from '@topup/validation';
 * import { createLedger, openStore, transactionData } from '@topup/ledger';
 * import { encodeJson, success } from '@topup/envelope';
 *
 * const ledger = createLedger(await openStore({ dataDir: 'memory://' }));
 * const account = await ledger.createAccount({ name: 'Duka Supplies' });
 * await ledger.fund(account.id, 'float', 5_000_000n);
 * const parsed = parseSendAgentFloat({
 *   mobile: '0712345678',
 *   amount: 1500,
 *   agent_number: '123456',
 *   store_number: '654321',
 * });
 * if (!parsed.ok) throw new Error(parsed.errors.join(', '));
 *
 * const outcome = await ledger.requestAgentFloat({ accountId: account.id, request: parsed.value });
 * if (outcome.kind === 'created') {
 *   const data = transactionData(outcome.transaction, outcome.channel, account);
 *   data.transaction.amount; // '1500'
 *   const body = encodeJson(success('Agent float requested', data));
 * }
 * ```
 */
export function transactionData(
  record: TransactionRecord,
  channel: ChannelBalance,
  sender: Account,
): TransactionData {
  return transactionDataFrom(record, channel, senderOf(sender));
}

/**
 * The wire data of a `send_airtime` answer: one entry per recipient's transaction, in request order, as
 * each stands now (a recipient cancelled at once carries its reason in `errors`), and the Airtime channel.
 *
 * @example
 * ```ts
 * import { sendAirtimeData, type Account, type ChannelBalance, type TransactionRecord } from '@topup/ledger';
 *
 * declare const transactions: TransactionRecord[];
 * declare const channel: ChannelBalance;
 * declare const account: Account;
 * sendAirtimeData(transactions, channel, account).transactions.length === transactions.length; // true
 * ```
 */
export function sendAirtimeData(
  transactions: readonly TransactionRecord[],
  channel: ChannelBalance,
  sender: Account,
): SendAirtimeData {
  return {
    sender: party(senderOf(sender)),
    transactions: transactions.map((record): SentAirtimeEntry => ({
      reference: record.reference,
      recipient: party(record.recipient),
      currency: record.currency,
      amount: minorToWholeUnits(record.amountMinor),
      country: record.country,
      network: record.network as Carrier,
      status: record.status,
      state: record.state,
      code: record.code,
      errors: record.cancelReason === '' ? [] : [record.cancelReason],
    })),
    messaging: { sender: '', recipient: '', message: '' },
    channel: channelView(channel),
  };
}
