// The audit log: one record per operator action, saying who did what to which target, when, and the
// target's state before and after. Records are only ever added. Reading is newest first, by id cursor.

import type { Queryable } from '@topup/ledger';

export interface AuditEntry {
  readonly actor: string;
  readonly action: string;
  readonly target: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

export interface AuditRecord extends AuditEntry {
  readonly id: string;
  readonly at: Date;
}

export async function recordAudit(db: Queryable, entry: AuditEntry, now: Date): Promise<void> {
  await db.query(
    `INSERT INTO audit_records (at, actor, action, target, before, after) VALUES ($1, $2, $3, $4, $5, $6)`,
    [
      now,
      entry.actor,
      entry.action,
      entry.target,
      entry.before === undefined ? null : JSON.stringify(entry.before),
      entry.after === undefined ? null : JSON.stringify(entry.after),
    ],
  );
}

export interface AuditFilter {
  readonly actor?: string | undefined;
  readonly action?: string | undefined;
  /** Only records older than this id: the previous page's `nextCursor`. */
  readonly before?: string | undefined;
  readonly limit: number;
}

interface AuditRow {
  id: string | number;
  at: Date | string;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

/** Newest first; `nextCursor` is undefined on the last page. */
export async function listAudit(
  db: Queryable,
  filter: AuditFilter,
): Promise<{ records: AuditRecord[]; nextCursor: string | undefined }> {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const where = (sql: string, value: unknown): void => {
    params.push(value);
    conditions.push(sql.replace('?', `$${params.length}`));
  };
  if (filter.actor !== undefined) where('actor = ?', filter.actor);
  if (filter.action !== undefined) where('action = ?', filter.action);
  if (filter.before !== undefined) where('id < ?', filter.before);
  params.push(filter.limit + 1);
  const { rows } = await db.query<AuditRow>(
    `SELECT id::text AS id, at, actor, action, target, before, after FROM audit_records
     ${conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`}
     ORDER BY audit_records.id DESC LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, filter.limit).map((row) => ({
    id: String(row.id),
    at: new Date(row.at),
    actor: row.actor,
    action: row.action,
    target: row.target,
    before: parsedJson(row.before),
    after: parsedJson(row.after),
  }));
  return { records: page, nextCursor: rows.length > filter.limit ? page.at(-1)?.id : undefined };
}

// pg hands jsonb back parsed; PGlite too, but a text column or driver setting could give a string.
function parsedJson(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
