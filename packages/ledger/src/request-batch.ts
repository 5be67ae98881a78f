// Applies one batch of transaction requests in one database transaction, with a handful of statements
// whatever the batch size: read the senders, claim idempotency keys and read contacts, then lock the
// ledger accounts involved (ascending id), decide each request in arrival order against running balances,
// and write every transaction, transfer, balance, contact and key release in one statement. A request is
// one transaction, or a send's many (`send_airtime`), which are reserved all together or not at all. The reads
// come before the lock and the writes go as one, so a hot account's rows stay locked for three round
// trips (lock, write, COMMIT) whatever the batch holds.

import type { Carrier, MoneyNetwork } from '@topup/envelope';
import { accountColumns, accountOf, type Account, type AccountRow } from './accounts.js';
import { columnsOf } from './columns-of.js';
import { contactKey, contactUpsertStatement, readContacts, type ContactUpdate } from './contacts.js';
import type { ItemResult } from './group-commit.js';
import {
  claimKeys,
  keyOf,
  type IdempotencyClaim,
  keyReleaseStatement,
  outcomeOfHeldKey,
  readHeldKeys,
  type KeyClaim,
} from './idempotency.js';
import { newReference } from './ids.js';
import {
  availableOf,
  balanceUpdateStatement,
  channelBalanceOf,
  lockLedgerAccounts,
  systemAccountIds,
  type ChannelBalance,
  type ChannelName,
  type LedgerAccountState,
} from './ledger-accounts.js';
import { LedgerError } from './ledger-error.js';
import type { SendAirtimeOutcome } from './outcomes.js';
import { runWithWrites, type SqlStatement } from './sql-statement.js';
import type { Queryable } from './store.js';
import type { TransactionDraft } from './transaction-draft.js';
import { transactionRecordOf, type TransactionRecord, type TransactionRow } from './transaction-record.js';
import { balanceDeltas, transferInsertStatement, type TransferInput } from './transfers.js';

export interface BatchContext {
  now: Date;
  timeZone: string;
  /** Test hook: runs after every write and before COMMIT; a throw rolls the whole batch back. */
  beforeCommit?: (batchSize: number) => void | Promise<void>;
}

/**
 * One request as a batch applies it: its transactions (one, or a send's, in request order), all for one
 * account and channel, under one idempotency key.
 */
export interface RequestUnit {
  readonly accountId: string;
  readonly idempotency: IdempotencyClaim | undefined;
  readonly drafts: readonly TransactionDraft[];
  /** A `send_airtime` request: its transactions are written as one send, in request order. */
  readonly send: boolean;
}

/** What a batch did with one request: as `RequestOutcome`, with every transaction a send created. */
export type UnitOutcome = SendAirtimeOutcome;

/** The reference of a request's first transaction, which its idempotency key and its send hold. */
function firstReference(references: readonly (readonly string[])[], index: number): string {
  return (references[index] as string[])[0] as string;
}

function channelOf(draft: TransactionDraft): ChannelName {
  return draft.type === 'Agent Float' ? 'float' : 'airtime';
}

/**
 * The system account a draft reserves its amount for, when it is paid from the caller's channel: the money
 * network of a float, the carrier of airtime sent from the balance. A purchase is paid by its payer and
 * reserves nothing.
 */
function reservedFor(draft: TransactionDraft): bigint | undefined {
  if (draft.type === 'Agent Float') return systemAccountIds.network[draft.network as MoneyNetwork];
  if (draft.payment === undefined) return systemAccountIds.carrier[draft.network as Carrier];
  return undefined;
}

/** Caller channels by account and channel name, from the locked rows. */
function channelIndex(locked: ReadonlyMap<bigint, LedgerAccountState>): Map<string, bigint> {
  const index = new Map<string, bigint>();
  for (const account of locked.values()) {
    if (account.accountId !== undefined && account.channel !== undefined) {
      index.set(`${account.accountId}:${account.channel}`, account.id);
    }
  }
  return index;
}

async function readSenders(tx: Queryable, accountIds: readonly string[]): Promise<Map<string, Account>> {
  const { rows } = await tx.query<AccountRow>(
    `SELECT ${accountColumns} FROM accounts WHERE id = ANY($1::text[])`,
    [accountIds],
  );
  const senders = new Map<string, Account>();
  for (const row of rows) senders.set(row.id, accountOf(row));
  return senders;
}

/** Fills a blank recipient or payer name/e-mail from the caller's contacts. */
async function fillFromContacts(
  tx: Queryable,
  drafts: readonly TransactionDraft[],
): Promise<TransactionDraft[]> {
  const lacking: { accountId: string; mobile: string }[] = [];
  for (const draft of drafts) {
    for (const party of draft.payment === undefined ? [draft.recipient] : [draft.recipient, draft.payment]) {
      if (party.name === '' || party.email === '') {
        lacking.push({ accountId: draft.accountId, mobile: party.mobile });
      }
    }
  }
  const contacts = await readContacts(tx, lacking);
  if (contacts.size === 0) return [...drafts];
  const filled = <P extends { name: string; mobile: string; email: string }>(
    accountId: string,
    party: P,
  ): P => {
    const contact = contacts.get(contactKey(accountId, party.mobile));
    if (contact === undefined) return party;
    return { ...party, name: party.name || contact.name, email: party.email || contact.email };
  };
  return drafts.map((draft) => ({
    ...draft,
    recipient: filled(draft.accountId, draft.recipient),
    payment: draft.payment === undefined ? undefined : filled(draft.accountId, draft.payment),
  }));
}

function contactUpdatesOf(draft: TransactionDraft): ContactUpdate[] {
  const updates: ContactUpdate[] = [
    {
      accountId: draft.accountId,
      mobile: draft.recipient.mobile,
      name: draft.recipient.name,
      email: draft.recipient.email,
    },
  ];
  if (draft.payment !== undefined) {
    updates.push({
      accountId: draft.accountId,
      mobile: draft.payment.mobile,
      name: draft.payment.name,
      email: draft.payment.email,
    });
  }
  return updates;
}

interface Created {
  draft: TransactionDraft;
  reference: string;
  sender: Account;
  /** For a send's transaction: the send's first reference, and its own place in the send. */
  send: { reference: string; position: number } | undefined;
}

/** The row of a created transaction, as the INSERT below writes it. */
function rowOf(entry: Created): TransactionRow {
  const { draft, sender } = entry;
  return {
    reference: entry.reference,
    account_id: draft.accountId,
    type: draft.type,
    state: 'requested',
    amount_minor: draft.amountMinor.toString(),
    currency: draft.currency,
    country: draft.country,
    network: draft.network,
    note: draft.note,
    code: '',
    recipient_name: draft.recipient.name,
    recipient_mobile: draft.recipient.mobile,
    recipient_email: draft.recipient.email,
    recipient_agent_name: draft.recipient.agent_name,
    recipient_agent_number: draft.recipient.agent_number,
    recipient_store_number: draft.recipient.store_number,
    payment_network: draft.payment?.network ?? null,
    payment_name: draft.payment?.name ?? null,
    payment_mobile: draft.payment?.mobile ?? null,
    payment_email: draft.payment?.email ?? null,
    sender_name: sender.name,
    sender_mobile: sender.mobile,
    sender_email: sender.email,
    sender_agent_name: sender.agent_name,
    sender_agent_number: sender.agent_number,
    sender_store_number: sender.store_number,
    cancel_reason: '',
    created_at: draft.requestedAt,
    submitted_at: null,
    resolved_at: null,
  };
}

/** The INSERT's columns in its order, each picked from a created transaction. */
const transactionColumns: readonly ((entry: Created) => unknown)[] = [
  (c) => c.reference,
  (c) => c.draft.accountId,
  (c) => c.draft.type,
  (c) => c.draft.amountMinor.toString(),
  (c) => c.draft.currency,
  (c) => c.draft.country,
  (c) => c.draft.network,
  (c) => c.draft.note,
  (c) => c.draft.recipient.name,
  (c) => c.draft.recipient.mobile,
  (c) => c.draft.recipient.email,
  (c) => c.draft.recipient.agent_name,
  (c) => c.draft.recipient.agent_number,
  (c) => c.draft.recipient.store_number,
  (c) => c.draft.payment?.network ?? null,
  (c) => c.draft.payment?.name ?? null,
  (c) => c.draft.payment?.mobile ?? null,
  (c) => c.draft.payment?.email ?? null,
  (c) => c.sender.name,
  (c) => c.sender.mobile,
  (c) => c.sender.email,
  (c) => c.sender.agent_name,
  (c) => c.sender.agent_number,
  (c) => c.sender.store_number,
  (c) => c.draft.requestedAt.toISOString(),
  (c) => c.send?.reference ?? null,
  (c) => c.send?.position ?? null,
];

/**
 * One INSERT of every created transaction; none when nothing was created. Nothing comes back: every
 * column is known here (the rest take their defaults), so each record is built from the row written.
 */
function transactionInsertStatement(created: readonly Created[]): SqlStatement | undefined {
  if (created.length === 0) return undefined;
  return {
    text: `INSERT INTO transactions (reference, account_id, type, amount_minor, currency, country, network, note,
       recipient_name, recipient_mobile, recipient_email, recipient_agent_name, recipient_agent_number,
       recipient_store_number, payment_network, payment_name, payment_mobile, payment_email, sender_name,
       sender_mobile, sender_email, sender_agent_name, sender_agent_number, sender_store_number, created_at,
       send_reference, send_position)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[],
       $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::text[], $14::text[], $15::text[],
       $16::text[], $17::text[], $18::text[], $19::text[], $20::text[], $21::text[], $22::text[], $23::text[],
       $24::text[], $25::timestamptz[], $26::text[], $27::integer[])`,
    values: columnsOf(created, transactionColumns),
  };
}

/** Applies a batch inside `tx`; one result per request, in order. */
export async function applyRequestBatch(
  tx: Queryable,
  batch: readonly RequestUnit[],
  context: BatchContext,
): Promise<ItemResult<UnitOutcome>[]> {
  const { now } = context;
  // Loops rather than callbacks throughout: see columns-of.ts for why a batch makes no closures.
  const results = new Array<ItemResult<UnitOutcome> | undefined>(batch.length).fill(undefined);
  const accountIdSet = new Set<string>();
  for (const unit of batch) accountIdSet.add(unit.accountId);
  const accountIds = [...accountIdSet];
  const systemIds = new Set<bigint>();
  for (const unit of batch) {
    for (const draft of unit.drafts) {
      const id = reservedFor(draft);
      if (id !== undefined) systemIds.add(id);
    }
  }

  const senders = await readSenders(tx, accountIds);
  for (let index = 0; index < batch.length; index += 1) {
    const unit = batch[index] as RequestUnit;
    const sender = senders.get(unit.accountId);
    if (sender === undefined) {
      results[index] = {
        ok: false,
        error: new LedgerError('account_not_found', `No account ${unit.accountId}.`),
      };
    } else if (sender.status === 'closed') {
      // Closing is final: no new money movement. Suspension is the caller's policy to enforce.
      results[index] = {
        ok: false,
        error: new LedgerError('account_closed', `Account ${unit.accountId} is closed.`),
      };
    }
  }

  // Idempotency: the first request of each key in the batch claims it; later ones follow its fate. A key
  // holds a request's first transaction, which names a send's others.
  const references: string[][] = [];
  for (const unit of batch) {
    const unitReferences: string[] = [];
    for (let position = 0; position < unit.drafts.length; position += 1) unitReferences.push(newReference());
    references.push(unitReferences);
  }
  const firstOfKey = new Map<string, number>();
  const claims: KeyClaim[] = [];
  for (let index = 0; index < batch.length; index += 1) {
    const unit = batch[index] as RequestUnit;
    if (unit.idempotency === undefined || results[index] !== undefined) continue;
    const key = keyOf(unit.accountId, unit.idempotency.key);
    if (firstOfKey.has(key)) continue;
    firstOfKey.set(key, index);
    claims.push({
      accountId: unit.accountId,
      ...unit.idempotency,
      reference: firstReference(references, index),
    });
  }
  const claimed = await claimKeys(tx, claims, now);
  const unclaimed: KeyClaim[] = [];
  for (const claim of claims) {
    if (!claimed.has(keyOf(claim.accountId, claim.key))) unclaimed.push(claim);
  }
  const heldKeys = await readHeldKeys(tx, unclaimed);
  for (let index = 0; index < batch.length; index += 1) {
    const unit = batch[index] as RequestUnit;
    if (unit.idempotency === undefined || results[index] !== undefined) continue;
    const held = heldKeys.get(keyOf(unit.accountId, unit.idempotency.key));
    if (held !== undefined)
      results[index] = { ok: true, value: outcomeOfHeldKey(held, unit.idempotency.requestHash) };
  }

  const undecided: number[] = [];
  const undecidedDrafts: TransactionDraft[] = [];
  for (let index = 0; index < batch.length; index += 1) {
    if (results[index] !== undefined) continue;
    undecided.push(index);
    undecidedDrafts.push(...(batch[index] as RequestUnit).drafts);
  }
  const filled = await fillFromContacts(tx, undecidedDrafts);
  const drafts = new Map<number, TransactionDraft[]>();
  let taken = 0;
  for (const index of undecided) {
    const count = (batch[index] as RequestUnit).drafts.length;
    drafts.set(index, filled.slice(taken, taken + count));
    taken += count;
  }

  // Every key and contact this batch needs is already read or claimed: only now take the row locks.
  const locked = await lockLedgerAccounts(tx, [...systemIds], accountIds);
  const channels = channelIndex(locked);

  // Decide in arrival order against running balances.
  const running = new Map(locked);
  const transfers: TransferInput[] = [];
  const created: Created[] = [];
  const createdUnits: { index: number; from: number; count: number; channel: ChannelBalance }[] = [];
  const createdIndexes = new Set<number>();
  const releases: { accountId: string; key: string }[] = [];
  for (const index of undecided) {
    const unit = batch[index] as RequestUnit;
    const unitDrafts = drafts.get(index) as TransactionDraft[];
    const channelName = channelOf(unitDrafts[0] as TransactionDraft);
    const channelId = channels.get(`${unit.accountId}:${channelName}`) as bigint;
    const idempotency = unit.idempotency;
    const first =
      idempotency === undefined ? index : (firstOfKey.get(keyOf(unit.accountId, idempotency.key)) ?? index);
    if (first !== index) {
      // A later request with a key its batch already holds: in progress while the first stands, refused
      // like the first when the first was refused; another body under the key is a conflict.
      const firstUnit = batch[first] as RequestUnit;
      results[index] =
        firstUnit.idempotency?.requestHash !== idempotency?.requestHash
          ? { ok: true, value: { kind: 'idempotency_conflict' } }
          : createdIndexes.has(first)
            ? {
                ok: true,
                value: { kind: 'idempotency_in_progress', reference: firstReference(references, first) },
              }
            : {
                ok: true,
                value: {
                  kind: 'insufficient_balance',
                  channel: channelBalanceOf(channelName, running.get(channelId) as LedgerAccountState),
                },
              };
      continue;
    }
    const reserving: { draft: TransactionDraft; position: number; systemId: bigint }[] = [];
    let total = 0n;
    for (let position = 0; position < unitDrafts.length; position += 1) {
      const draft = unitDrafts[position] as TransactionDraft;
      const systemId = reservedFor(draft);
      if (systemId === undefined) continue;
      reserving.push({ draft, position, systemId });
      total += draft.amountMinor;
    }
    const channelAccount = running.get(channelId) as LedgerAccountState;
    if (reserving.length > 0 && availableOf(channelAccount) < total) {
      results[index] = {
        ok: true,
        value: { kind: 'insufficient_balance', channel: channelBalanceOf(channelName, channelAccount) },
      };
      if (idempotency !== undefined) releases.push({ accountId: unit.accountId, key: idempotency.key });
      continue;
    }
    const unitReferences = references[index] as string[];
    for (const { draft, position, systemId } of reserving) {
      const channel = running.get(channelId) as LedgerAccountState;
      const system = running.get(systemId) as LedgerAccountState;
      running.set(channelId, { ...channel, debitsPending: channel.debitsPending + draft.amountMinor });
      running.set(systemId, { ...system, creditsPending: system.creditsPending + draft.amountMinor });
      transfers.push({
        debitAccountId: channelId,
        creditAccountId: systemId,
        amount: draft.amountMinor,
        kind: 'pending',
        purpose: draft.type === 'Agent Float' ? 'float' : 'airtime_payout',
        reference: unitReferences[position] as string,
      });
    }
    createdIndexes.add(index);
    const sender = senders.get(unit.accountId) as Account;
    createdUnits.push({
      index,
      from: created.length,
      count: unitDrafts.length,
      channel: channelBalanceOf(channelName, running.get(channelId) as LedgerAccountState),
    });
    for (let position = 0; position < unitDrafts.length; position += 1) {
      created.push({
        draft: unitDrafts[position] as TransactionDraft,
        reference: unitReferences[position] as string,
        sender,
        send: unit.send ? { reference: firstReference(references, index), position } : undefined,
      });
    }
  }
  const contactUpdates: ContactUpdate[] = [];
  for (const entry of created) contactUpdates.push(...contactUpdatesOf(entry.draft));

  await runWithWrites(tx, undefined, [
    transactionInsertStatement(created),
    keyReleaseStatement(releases),
    transferInsertStatement(transfers, now),
    balanceUpdateStatement(balanceDeltas(transfers)),
    contactUpsertStatement(contactUpdates, now),
  ]);
  for (const { index, from, count, channel } of createdUnits) {
    const transactions: TransactionRecord[] = [];
    for (let position = from; position < from + count; position += 1) {
      transactions.push(transactionRecordOf(rowOf(created[position] as Created), context.timeZone));
    }
    results[index] = { ok: true, value: { kind: 'created', transactions, channel } };
  }
  await context.beforeCommit?.(batch.length);
  const decided: ItemResult<UnitOutcome>[] = [];
  for (let index = 0; index < batch.length; index += 1) {
    decided.push(
      results[index] ?? {
        ok: false,
        error: new Error(`Expected a result for request ${index} of the batch.`),
      },
    );
  }
  return decided;
}
