import { openStore, type Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateProviders } from './provider-migrations.js';
import { claimCall, forgetAttempt, recordSubmissionId, submissionIdOf } from './submission-ids.js';

describe('claimCall', () => {
  let store: Store;
  const now = new Date('2026-11-28T09:00:00Z');

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    await migrateProviders(store);
  });
  afterAll(() => store.close());

  it('is won by the first caller and held against every later one', async () => {
    expect(await claimCall(store, 'daraja', 'TXFIRST-payment', now)).toBe('won');
    expect(await claimCall(store, 'daraja', 'TXFIRST-payment', now)).toBe('held');
    expect(await claimCall(store, 'africastalking', 'TXFIRST-payment', now)).toBe('won');
  });

  it('answers acknowledged, and writes no claim, once the submission id is recorded', async () => {
    await recordSubmissionId(
      store,
      {
        provider: 'daraja',
        providerId: 'ws_CO_1',
        reference: 'TXACKED-payment',
        purpose: 'submission',
        otherId: '',
      },
      now,
    );
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
    await recordSubmissionId(
      store,
      {
        provider: 'africastalking',
        providerId: 'ATQid_1',
        reference: 'TXREFUSED-delivery',
        purpose: 'submission',
        otherId: '',
      },
      now,
    );
    expect(await submissionIdOf(store, 'africastalking', 'TXREFUSED-delivery')).toMatchObject({
      providerId: 'ATQid_1',
    });
    expect(await claimCall(store, 'africastalking', 'TXREFUSED-delivery', now)).toBe('acknowledged');
  });
});
