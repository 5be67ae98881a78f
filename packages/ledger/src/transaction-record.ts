// A transaction as the ledger keeps it: every field the wire model needs, plus its lifecycle times.
// One mapping from the `transactions` row; the wire view is built from this record in transaction-view.

import type {
  AgentParty,
  Carrier,
  Messaging,
  MoneyNetwork,
  Payment,
  TransactionState,
  TransactionStatus,
  TransactionType,
} from '@topup/envelope';
import { formatMinor } from './money.js';
import { formatTransactionDate } from './transaction-date.js';

/**
 * A transaction as the ledger keeps it: amounts in minor units, the parties and messages as snapshotted
 * when it was requested, and its lifecycle. `transactionData` turns it into the wire form.
 *
 * @example
 * ```ts
 * import { parseSendAgentFloat } from '@topup/validation';
 * import { createLedger, openStore } from '@topup/ledger';
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
 *   const record = outcome.transaction;
 *   record.amountMinor; // 150000n
 *   record.state; // 'requested'
 *   record.network; // 'MoneyNetA'
 * }
 * ```
 */
export interface TransactionRecord {
  reference: string;
  accountId: string;
  type: TransactionType;
  state: TransactionState;
  /** Wire value: `Cancelled` once cancelled, `Requested` otherwise (a delivered one still reads so). */
  status: TransactionStatus;
  /** `YYYY-MM-DD HH:MM:SS` in the ledger's time zone. */
  date: string;
  createdAt: Date;
  amountMinor: bigint;
  currency: string;
  country: string;
  network: MoneyNetwork | Carrier;
  note: string;
  /** The provider's identifier; blank until known. */
  code: string;
  source: 'API';
  /** For airtime the agent fields are blank. */
  recipient: AgentParty;
  /** The payer; airtime only. */
  payment: Payment | undefined;
  /** The caller's profile when the transaction was requested. */
  sender: AgentParty;
  messaging: Messaging;
  cancelReason: string;
  submittedAt: Date | undefined;
  resolvedAt: Date | undefined;
}

export interface TransactionRow {
  reference: string;
  account_id: string;
  type: TransactionType;
  state: TransactionState;
  amount_minor: string;
  currency: string;
  country: string;
  network: MoneyNetwork | Carrier;
  note: string;
  code: string;
  recipient_name: string;
  recipient_mobile: string;
  recipient_email: string;
  recipient_agent_name: string;
  recipient_agent_number: string;
  recipient_store_number: string;
  payment_network: MoneyNetwork | null;
  payment_name: string | null;
  payment_mobile: string | null;
  payment_email: string | null;
  sender_name: string;
  sender_mobile: string;
  sender_email: string;
  sender_agent_name: string;
  sender_agent_number: string;
  sender_store_number: string;
  cancel_reason: string;
  created_at: Date;
  submitted_at: Date | null;
  resolved_at: Date | null;
}

/** Every column of `transactions`, for SELECT and RETURNING lists. */
export const transactionColumns = `reference, account_id, type, state, amount_minor, currency, country, network,
  note, code, recipient_name, recipient_mobile, recipient_email, recipient_agent_name, recipient_agent_number,
  recipient_store_number, payment_network, payment_name, payment_mobile, payment_email, sender_name,
  sender_mobile, sender_email, sender_agent_name, sender_agent_number, sender_store_number, cancel_reason,
  created_at, submitted_at, resolved_at`;

/** The SMS the recipient gets on completion; blank before. */
function messagingOf(row: TransactionRow, amountMinor: bigint): Messaging {
  if (row.state !== 'completed') return { sender: '', recipient: '', message: '' };
  const what = row.type === 'Airtime' ? 'airtime' : 'agent float';
  return {
    sender: '',
    recipient: row.recipient_mobile,
    message: `You have received ${row.currency} ${formatMinor(amountMinor)} ${what}`,
  };
}

/** Maps a `transactions` row; `timeZone` decides `date`. */
export function transactionRecordOf(row: TransactionRow, timeZone: string): TransactionRecord {
  const amountMinor = BigInt(row.amount_minor);
  return {
    reference: row.reference,
    accountId: row.account_id,
    type: row.type,
    state: row.state,
    status: row.state === 'cancelled' ? 'Cancelled' : 'Requested',
    date: formatTransactionDate(row.created_at, timeZone),
    createdAt: row.created_at,
    amountMinor,
    currency: row.currency,
    country: row.country,
    network: row.network,
    note: row.note,
    code: row.code,
    source: 'API',
    recipient: {
      name: row.recipient_name,
      mobile: row.recipient_mobile,
      email: row.recipient_email,
      agent_name: row.recipient_agent_name,
      agent_number: row.recipient_agent_number,
      store_number: row.recipient_store_number,
    },
    payment:
      row.payment_network === null
        ? undefined
        : {
            network: row.payment_network,
            name: row.payment_name ?? '',
            mobile: row.payment_mobile ?? '',
            email: row.payment_email ?? '',
          },
    sender: {
      name: row.sender_name,
      mobile: row.sender_mobile,
      email: row.sender_email,
      agent_name: row.sender_agent_name,
      agent_number: row.sender_agent_number,
      store_number: row.sender_store_number,
    },
    messaging: messagingOf(row, amountMinor),
    cancelReason: row.cancel_reason,
    submittedAt: row.submitted_at ?? undefined,
    resolvedAt: row.resolved_at ?? undefined,
  };
}
