// Finding accounts for the operator's account list: by exact id, or by a part of the name, in id order
// with a keyset cursor, so a page costs the same on the thousandth account as on the first.

import type { Account, Queryable } from '@topup/ledger';

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
}

export async function searchAccounts(
  db: Queryable,
  search: { query: string | undefined; after: string | undefined; limit: number },
): Promise<{ accounts: Account[]; nextCursor: string | undefined }> {
  const query = search.query?.trim() ?? '';
  // LIKE's own wildcards in what the operator typed are matched as themselves.
  const pattern = `%${query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await db.query<AccountRow>(
    `SELECT * FROM accounts
     WHERE ($1 = '' OR id = $1 OR name ILIKE $2 OR mobile = $1 OR email = lower($1))
       AND ($3::text IS NULL OR id > $3)
     ORDER BY id LIMIT $4`,
    [query, pattern, search.after ?? null, search.limit + 1],
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
  }));
  return { accounts, nextCursor: rows.length > search.limit ? accounts.at(-1)?.id : undefined };
}
