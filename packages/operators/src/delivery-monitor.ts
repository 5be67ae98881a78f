// The delivery monitor: callback endpoints across every account whose deliveries of the last day failed,
// wait on retries, or went to an endpoint now disabled, with their failure rate over that day, worst
// first. It reads one day of deliveries, not the history.

import type { Queryable } from '@topup/ledger';

const windowMs = 24 * 3_600_000;

interface MonitorRow {
  endpoint_id: string;
  account_id: string;
  url: string;
  enabled: boolean;
  disabled_reason: string;
  total: string | number;
  delivered: string | number;
  failed: string | number;
  retrying: string | number;
  last_error: string | null;
}

export async function deliveryMonitor(db: Queryable, now: Date) {
  const { rows } = await db.query<MonitorRow>(
    `SELECT e.id AS endpoint_id, e.account_id, e.url, e.enabled, e.disabled_reason,
       count(*) AS total,
       count(*) FILTER (WHERE d.status = 'delivered') AS delivered,
       count(*) FILTER (WHERE d.status = 'failed') AS failed,
       count(*) FILTER (WHERE d.status = 'pending' AND d.attempts > 0) AS retrying,
       (array_agg(d.last_error ORDER BY d.updated_at DESC) FILTER (WHERE d.last_error <> ''))[1] AS last_error
     FROM callback_deliveries d JOIN callback_endpoints e ON e.id = d.endpoint_id
     WHERE d.created_at >= $1 AND e.removed_at IS NULL
     GROUP BY e.id, e.account_id, e.url, e.enabled, e.disabled_reason
     HAVING count(*) FILTER (WHERE d.status = 'failed') > 0
         OR count(*) FILTER (WHERE d.status = 'pending' AND d.attempts > 0) > 0
         OR NOT e.enabled
     ORDER BY count(*) FILTER (WHERE d.status = 'failed') DESC, e.id
     LIMIT 200`,
    [new Date(now.getTime() - windowMs)],
  );
  return rows.map((row) => {
    const total = Number(row.total);
    const failed = Number(row.failed);
    return {
      endpoint_id: row.endpoint_id,
      account: row.account_id,
      url: row.url,
      enabled: row.enabled,
      disabled_reason: row.disabled_reason,
      deliveries_24h: total,
      delivered_24h: Number(row.delivered),
      failed_24h: failed,
      retrying: Number(row.retrying),
      failure_rate: total === 0 ? '0.0' : ((failed / total) * 100).toFixed(1),
      last_error: row.last_error ?? '',
    };
  });
}
