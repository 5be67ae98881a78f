// The outbox's depth and the age of its oldest pending delivery, read from the database so the numbers
// cover every worker sharing it, not just this one.

import type { Queryable } from '@topup/ledger';
import type { DeliveryQueueStats } from '../worker-metrics.js';

/** Counts pending deliveries and measures the oldest one's age in seconds (0 when none is pending). */
export async function deliveryQueueStats(store: Queryable): Promise<DeliveryQueueStats> {
  const { rows } = await store.query<{
    pending: string | number;
    oldest_age_seconds: string | number | null;
  }>(
    `SELECT count(*) AS pending,
            extract(epoch FROM now() - min(created_at)) AS oldest_age_seconds
       FROM callback_deliveries
      WHERE status = 'pending'`,
  );
  const row = rows[0];
  return {
    pending: Number(row?.pending ?? 0),
    oldestPendingAgeSeconds: Math.max(0, Number(row?.oldest_age_seconds ?? 0)),
  };
}
