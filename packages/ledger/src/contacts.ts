// The caller's contacts, by mobile: names and e-mail addresses given in requests are remembered, and
// fill the blanks of later requests to the same number. A blank field never erases a stored one.

import type { SqlStatement } from './sql-statement.js';
import type { Queryable } from './store.js';

/**
 * A person a caller has sent to or been paid by, remembered by mobile number: names and e-mails given
 * once fill the blanks of later requests.
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
 *   name: 'Wanjiku Agency',
 * });
 * if (!parsed.ok) throw new Error(parsed.errors.join(', '));
 *
 * await ledger.requestAgentFloat({ accountId: account.id, request: parsed.value });
 * (await ledger.findContact(account.id, '254712345678'))?.name; // 'Wanjiku Agency'
 * ```
 */
export interface Contact {
  accountId: string;
  mobile: string;
  name: string;
  email: string;
  createdAt: Date;
  updatedAt: Date;
}

/** What a request says about a contact; '' means "not given". */
export interface ContactUpdate {
  accountId: string;
  mobile: string;
  name: string;
  email: string;
}

interface ContactRow {
  account_id: string;
  mobile: string;
  name: string;
  email: string;
  created_at: Date;
  updated_at: Date;
}

function contactOf(row: ContactRow): Contact {
  return {
    accountId: row.account_id,
    mobile: row.mobile,
    name: row.name,
    email: row.email,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The key of a contact in the map `readContacts` returns. */
export function contactKey(accountId: string, mobile: string): string {
  return `${accountId}\u0000${mobile}`;
}

/** The caller's contact for that mobile, if known. */
export async function findContact(
  db: Queryable,
  accountId: string,
  mobile: string,
): Promise<Contact | undefined> {
  const { rows } = await db.query<ContactRow>(
    'SELECT account_id, mobile, name, email, created_at, updated_at FROM contacts WHERE account_id = $1 AND mobile = $2',
    [accountId, mobile],
  );
  return rows[0] === undefined ? undefined : contactOf(rows[0]);
}

/** Contacts of many (account, mobile) pairs in one query, keyed by `contactKey`. */
export async function readContacts(
  db: Queryable,
  pairs: readonly { accountId: string; mobile: string }[],
): Promise<Map<string, Contact>> {
  if (pairs.length === 0) return new Map();
  const { rows } = await db.query<ContactRow>(
    `SELECT account_id, mobile, name, email, created_at, updated_at FROM contacts
     WHERE (account_id, mobile) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
    [pairs.map((p) => p.accountId), pairs.map((p) => p.mobile)],
  );
  return new Map(rows.map((row) => [contactKey(row.account_id, row.mobile), contactOf(row)]));
}

/**
 * The upsert of contacts as one statement; none when no update carries a name or an e-mail. Updates of
 * the same contact are merged first (a later non-blank value wins), and rows go in sorted order so
 * concurrent batches never wait on each other crosswise.
 */
export function contactUpsertStatement(
  updates: readonly ContactUpdate[],
  now: Date,
): SqlStatement | undefined {
  const merged = new Map<string, ContactUpdate>();
  for (const update of updates) {
    if (update.name === '' && update.email === '') continue;
    const key = contactKey(update.accountId, update.mobile);
    const earlier = merged.get(key);
    merged.set(key, {
      ...update,
      name: update.name === '' ? (earlier?.name ?? '') : update.name,
      email: update.email === '' ? (earlier?.email ?? '') : update.email,
    });
  }
  if (merged.size === 0) return undefined;
  const rows = [...merged.values()];
  return {
    text: `INSERT INTO contacts AS c (account_id, mobile, name, email, created_at, updated_at)
     SELECT a, m, n, e, $5::timestamptz, $5::timestamptz
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS u (a, m, n, e)
     ORDER BY a, m
     ON CONFLICT (account_id, mobile) DO UPDATE SET
       name = CASE WHEN EXCLUDED.name = '' THEN c.name ELSE EXCLUDED.name END,
       email = CASE WHEN EXCLUDED.email = '' THEN c.email ELSE EXCLUDED.email END,
       updated_at = EXCLUDED.updated_at
     WHERE (EXCLUDED.name <> '' AND EXCLUDED.name <> c.name) OR (EXCLUDED.email <> '' AND EXCLUDED.email <> c.email)`,
    values: [
      rows.map((r) => r.accountId),
      rows.map((r) => r.mobile),
      rows.map((r) => r.name),
      rows.map((r) => r.email),
      now.toISOString(),
    ],
  };
}
