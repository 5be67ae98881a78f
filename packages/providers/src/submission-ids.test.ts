import { openStore, type Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateProviders } from './provider-migrations.js';
import { createSubmissionBatches } from './submission-batches.js';
import {
  claimCall,
  claimCalls,
  forgetAttempt,
  recordSubmissionId,
  recordSubmissionIds,
  submissionIdOf,
  type SubmissionId,
} from './submission-ids.js';

let store: Store;
const now = new Date('2026-11-28T09:00:00Z');

beforeAll(async () => {
  store = await openStore({ dataDir: 'memory://' });
  await migrateProviders(store);
});
afterAll(() => store.close());

/** The id `provider` gave the submission of `reference`. */
const submitted = (provider: string, providerId: string, reference: string): SubmissionId => ({
  provider,
  providerId,
  reference,
  purpose: 'submission',
  otherId: '',
});

describe('claimCall', () => {
  it('is won by the first caller and held against every later one', async () => {
    expect(await claimCall(store, 'daraja', 'TXFIRST-payment', now)).toBe('won');
    expect(await claimCall(store, 'daraja', 'TXFIRST-payment', now)).toBe('held');
    expect(await claimCall(store, 'africastalking', 'TXFIRST-payment', now)).toBe('won');
  });

  it('answers acknowledged, and writes no claim, once the submission id is recorded', async () => {
    await recordSubmissionId(store, submitted('daraja', 'ws_CO_1', 'TXACKED-payment'), now);
    expect(await claimCall(store, 'daraja', 'TXACKED-payment', now)).toBe('acknowledged');
    const { rows } = await store.query(`SELECT 1 FROM provider_submission_ids WHERE provider_id = $1`, [
      'attempt:TXACKED-payment',
    ]);
    expect(rows).toEqual([]);
  });

  it('is won again once a claim is given up, and a held one can then be found acknowledged', async () => {
    expect(await claimCall(store, 'africastalking', 'TXREFUSED-delivery', now)).toBe('won');
    await forgetAttempt(store, 'africastalking', 'TXREFUSED-delivery');
    expect(await claimCall(store, 'africastalking', 'TXREFUSED-delivery', now)).toBe('won');
    await recordSubmissionId(store, submitted('africastalking', 'ATQid_1', 'TXREFUSED-delivery'), now);
    expect(await submissionIdOf(store, 'africastalking', 'TXREFUSED-delivery')).toMatchObject({
      providerId: 'ATQid_1',
    });
    expect(await claimCall(store, 'africastalking', 'TXREFUSED-delivery', now)).toBe('acknowledged');
  });

  it('answers each claim of a batch as if alone, the first of two claims of one call winning', async () => {
    const recorded = submitted('daraja', 'ws_CO_2', 'TXB-payment');
    await recordSubmissionIds(store, [recorded, recorded], now);
    await claimCall(store, 'daraja', 'TXHELD-payment', now);
    const claims = await claimCalls(
      store,
      [
        { provider: 'daraja', reference: 'TXA-payment' },
        { provider: 'daraja', reference: 'TXB-payment' },
        { provider: 'daraja', reference: 'TXA-payment' },
        { provider: 'daraja', reference: 'TXHELD-payment' },
        { provider: 'africastalking', reference: 'TXA-payment' },
      ],
      now,
    );
    expect(claims).toEqual(['won', 'acknowledged', 'held', 'held', 'won']);
  });
});

describe('submission batches', () => {
  it('lets exactly one of many concurrent claims of one call win, and records every id', async () => {
    const batches = createSubmissionBatches(store, () => now);
    const claims = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        batches.claim('daraja', `TXBATCH${String(index % 5)}-payment`),
      ),
    );
    expect(claims.filter((claim) => claim === 'won')).toHaveLength(5);
    expect(claims.slice(0, 5)).toEqual(['won', 'won', 'won', 'won', 'won']);
    await Promise.all(
      [0, 1, 2].map((index) =>
        batches.remember(
          submitted('daraja', `ws_CO_batch_${String(index)}`, `TXBATCH${String(index)}-payment`),
        ),
      ),
    );
    for (const index of [0, 1, 2]) {
      expect(await submissionIdOf(store, 'daraja', `TXBATCH${String(index)}-payment`)).toMatchObject({
        providerId: `ws_CO_batch_${String(index)}`,
      });
    }
    await expect(batches.claim('daraja', 'TXBATCH0-payment')).resolves.toBe('acknowledged');
  });
});
