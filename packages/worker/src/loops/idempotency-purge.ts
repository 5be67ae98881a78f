// Deleting idempotency keys past their 24-hour window, which nothing else removes. A failed purge is only
// a warning: expired keys no longer answer requests, they merely take space until the next round.

import type { Ledger } from '@topup/ledger';
import type { Logger } from 'pino';
import type { RoundResult } from './poll-loop.js';

export interface IdempotencyPurgeDependencies {
  readonly ledger: Pick<Ledger, 'purgeExpiredIdempotencyKeys'>;
  readonly logger: Logger;
  /** Keys deleted per round at most. */
  readonly limit: number;
}

/** One round: deletes up to `limit` expired keys; a full batch asks for another round at once. */
export async function purgeExpiredIdempotencyKeys(deps: IdempotencyPurgeDependencies): Promise<RoundResult> {
  const { ledger, logger, limit } = deps;
  let purged: number;
  try {
    purged = await ledger.purgeExpiredIdempotencyKeys(limit);
  } catch (error) {
    logger.warn({ err: error }, 'purging expired idempotency keys failed; will retry');
    return { more: false };
  }
  if (purged > 0) logger.info({ purged }, `purged ${purged} expired idempotency keys`);
  return { more: purged === limit };
}
