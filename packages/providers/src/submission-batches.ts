// An adapter's claims and recorded submission ids, written many per statement: the calls an adapter has
// under way at one moment (a busy server or worker has dozens) share one round trip to the store for
// their claims, and one for their ids, where each took its own. Each call is answered as if alone.

import { createGroupCommit, isolatingFailures, type Queryable } from '@topup/ledger';
import { claimCalls, recordSubmissionIds, type CallClaim, type SubmissionId } from './submission-ids.js';

export interface SubmissionBatches {
  /** `claimCall`, batched with the claims made meanwhile. */
  claim(provider: string, reference: string): Promise<CallClaim>;
  /** `recordSubmissionId`, batched with the ids recorded meanwhile. */
  remember(id: SubmissionId): Promise<void>;
}

const batchLimit = 64;

export function createSubmissionBatches(store: Queryable, now: () => Date): SubmissionBatches {
  const claims = createGroupCommit<{ provider: string; reference: string }, CallClaim>({
    maxWaitMs: 0,
    maxSize: batchLimit,
    flush: isolatingFailures(async (calls) =>
      (await claimCalls(store, calls, now())).map((value) => ({ ok: true, value })),
    ),
  });
  const ids = createGroupCommit<SubmissionId, undefined>({
    maxWaitMs: 0,
    maxSize: batchLimit,
    flush: isolatingFailures(async (batch) => {
      await recordSubmissionIds(store, batch, now());
      return batch.map(() => ({ ok: true, value: undefined }));
    }),
  });
  return {
    claim: (provider, reference) => claims.submit({ provider, reference }),
    remember: (id) => ids.submit(id),
  };
}
