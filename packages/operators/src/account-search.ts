// Finding accounts for the operators' list: by exact id, mobile or email, or a part of the name, newest
// first with both channels' available balances, a page at a time by a keyset cursor (creation time and
// id), so a page costs the same on the thousandth account as on the first.

import type { Account, Queryable } from '@topup/ledger';
import { OperatorError } from './operator-error.js';

interface AccountRow {
  id: string;
  name: string;
  mobile: string;
  email: string;
  agent_name: string;
  agent_number: string;
  store_number: string;
  status: Account['status'];
  created_at: Date | string;
  updated_at: Date | string;
  float_available: string | number;
  airtime_available: string | number;
}

export interface FoundAccount extends Account {
  readonly floatAvailableMinor: bigint;
  readonly airtimeAvailableMinor: bigint;
}

/** The opaque cursor after an account: its creation time and id. */
function cursorOf(account: Account): string {
  return Buffer.from(`${account.createdAt.toISOString()}|${account.id}`).toString('base64url');
}

function positionOf(cursor: string): { createdAt: Date; id: string } {
  const [at = '', id = ''] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  const createdAt = new Date(at);
  if (id === '' || Number.isNaN(createdAt.getTime()))
    throw new OperatorError('invalid', 'cursor is not one a page of accounts gave', ['cursor']);
  return { createdAt, id };
}

export async function searchAccounts(
  db: Queryable,
  search: { query: string | undefined; after: string | undefined; limit: number },
): Promise<{ accounts: FoundAccount[]; nextCursor: string | undefined }> {
  const query = search.query?.trim() ?? '';
  // LIKE's own wildcards in what the operator typed are matched as themselves.
  const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const after = search.after === undefined || search.after === '' ? undefined : positionOf(search.after);
  const { rows } = await db.query<AccountRow>(
    `SELECT a.*,
       f.credits_posted - f.debits_posted - f.debits_pending AS float_available,
       t.credits_posted - t.debits_posted - t.debits_pending AS airtime_available
     FROM accounts a
     JOIN ledger_accounts f ON f.account_id = a.id AND f.channel = 'float'
     JOIN ledger_accounts t ON t.account_id = a.id AND t.channel = 'airtime'
     WHERE ($1 = '' OR a.id = $1 OR a.name ILIKE $2 OR a.mobile = $1 OR a.email = lower($1))
       AND ($3::timestamptz IS NULL OR (a.created_at, a.id) < ($3::timestamptz, $4::text))
     ORDER BY a.created_at DESC, a.id DESC LIMIT $5`,
    [query, pattern, after?.createdAt ?? null, after?.id ?? null, search.limit + 1],
  );
  const accounts = rows.slice(0, search.limit).map((row) => ({
    id: row.id,
    name: row.name,
    mobile: row.mobile,
    email: row.email,
    agent_name: row.agent_name,
    agent_number: row.agent_number,
    store_number: row.store_number,
    status: row.status,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    floatAvailableMinor: BigInt(row.float_available),
    airtimeAvailableMinor: BigInt(row.airtime_available),
  }));
  const last = accounts.at(-1);
  return {
    accounts,
    nextCursor: rows.length > search.limit && last !== undefined ? cursorOf(last) : undefined,
  };
}
