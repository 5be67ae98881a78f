// A validated request turned into the transactions it would create: amounts in minor units, absent
// optional fields blank. Built before a request joins a batch, so a bad input fails alone.

import type { AgentParty, Carrier, MoneyNetwork, Payment, TransactionType } from '@topup/envelope';
import { maxRecipients } from '@topup/validation';
import type { BuyAirtimeRequest, SendAgentFloatRequest, SendAirtimeRequest } from '@topup/validation';
import { LedgerError } from './ledger-error.js';
import { wholeUnitsToMinor } from './money.js';
import { assertWireFields } from './wire-text.js';

export interface TransactionDraft {
  type: TransactionType;
  accountId: string;
  amountMinor: bigint;
  currency: string;
  country: string;
  network: MoneyNetwork | Carrier;
  note: string;
  recipient: AgentParty;
  payment: Payment | undefined;
  requestedAt: Date;
}

/** The currency of every channel. */
const channelCurrency = 'KES';

function amountOf(amount: number): bigint {
  try {
    return wholeUnitsToMinor(amount);
  } catch (error) {
    throw new LedgerError('invalid_input', (error as Error).message);
  }
}

function checkCurrency(currency: string): string {
  if (currency !== channelCurrency) {
    throw new LedgerError(
      'invalid_input',
      `Expected currency ${channelCurrency} (the channel's currency), received ${JSON.stringify(currency)}.`,
    );
  }
  return currency;
}

/** The draft, once its text is known to be storable and showable in either format. */
function checked(draft: TransactionDraft): TransactionDraft {
  assertWireFields('transaction', { note: draft.note });
  assertWireFields('recipient', draft.recipient);
  if (draft.payment !== undefined) assertWireFields('payment', draft.payment);
  return draft;
}

/** The draft of a `send_agent_float` request. */
export function agentFloatDraft(
  accountId: string,
  request: SendAgentFloatRequest,
  requestedAt: Date,
): TransactionDraft {
  return checked({
    type: 'Agent Float',
    accountId,
    amountMinor: amountOf(request.amount),
    currency: checkCurrency(request.currency),
    country: request.country,
    network: request.network,
    note: request.note ?? '',
    recipient: {
      name: request.name ?? '',
      mobile: request.mobile,
      email: request.email ?? '',
      agent_name: request.agent_name ?? '',
      agent_number: request.agent_number ?? '',
      store_number: request.store_number ?? '',
    },
    payment: undefined,
    requestedAt,
  });
}

/** The draft of a `buy_airtime` request. */
export function airtimeDraft(
  accountId: string,
  request: BuyAirtimeRequest,
  requestedAt: Date,
): TransactionDraft {
  return checked({
    type: 'Airtime',
    accountId,
    amountMinor: amountOf(request.amount),
    currency: checkCurrency(request.currency),
    country: request.country,
    network: request.network,
    note: request.note ?? '',
    recipient: {
      name: request.name ?? '',
      mobile: request.mobile,
      email: request.email ?? '',
      agent_name: '',
      agent_number: '',
      store_number: '',
    },
    payment: {
      network: request.payment_network,
      name: request.payment_name ?? '',
      mobile: request.payment_mobile,
      email: request.payment_email ?? '',
    },
    requestedAt,
  });
}

/** The drafts of a `send_airtime` request, one per recipient in request order, paid from the balance. */
export function sentAirtimeDrafts(
  accountId: string,
  request: SendAirtimeRequest,
  requestedAt: Date,
): TransactionDraft[] {
  // The validator bounds the list; a caller of the ledger itself is held to the same bounds, since an
  // empty send would fail every request in its batch.
  const count = request.recipients.length;
  if (count < 1 || count > maxRecipients) {
    throw new LedgerError(
      'invalid_input',
      `Expected 1 to ${maxRecipients} recipients in a send, received ${count}.`,
    );
  }
  return request.recipients.map((recipient) =>
    checked({
      type: 'Airtime',
      accountId,
      amountMinor: amountOf(recipient.amount),
      currency: checkCurrency(recipient.currency),
      country: recipient.country,
      network: recipient.network,
      note: request.note ?? '',
      recipient: {
        name: recipient.name ?? '',
        mobile: recipient.mobile,
        email: recipient.email ?? '',
        agent_name: '',
        agent_number: '',
        store_number: '',
      },
      payment: undefined,
      requestedAt,
    }),
  );
}
