import { openStore, type Store } from '@topup/ledger';
import { migrateProviders, storeWebhookCall } from '@topup/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createInboxFill } from './inbox-fill.js';

describe('a provider inbox’s fill', () => {
  let store: Store;
  let calls = 0;
  const waitingCall = (provider: string) =>
    storeWebhookCall(
      store,
      provider,
      { event: 'stk', contentType: 'application/json', body: '{}' },
      { kind: 'reports', eventId: `event-${String((calls += 1))}`, reports: [] },
      new Date(),
    );
  const appliedAll = (provider: string) =>
    store.query(`UPDATE provider_webhook_inbox SET applied_at = now() WHERE provider = $1`, [provider]);

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    await migrateProviders(store);
  });
  afterAll(async () => {
    await store.close();
  });

  it('adds the calls this process stored to the last count, and counts again once a second', async () => {
    let clock = 0;
    const fill = createInboxFill(store, 3, () => clock);
    expect(await fill.full('daraja')).toBe(false);
    await waitingCall('daraja');
    await waitingCall('daraja');
    fill.stored('daraja');
    fill.stored('daraja');
    // Another process's call is not seen until the count is made again.
    await waitingCall('daraja');
    expect(await fill.full('daraja')).toBe(false);
    clock += 1_000;
    expect(await fill.full('daraja')).toBe(true);
  });

  it('counts again before refusing, so calls are taken as soon as the worker has caught up', async () => {
    const clock = 0;
    const fill = createInboxFill(store, 1, () => clock);
    await waitingCall('africastalking');
    expect(await fill.full('africastalking')).toBe(true);
    await appliedAll('africastalking');
    expect(await fill.full('africastalking')).toBe(false);
  });
});
