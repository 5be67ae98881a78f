import { openStore, type Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookEvent } from './provider.js';
import { migrateProviders } from './provider-migrations.js';
import { storeWebhookCall, storeWebhookCalls, unappliedWebhookCalls } from './webhook-inbox.js';

const results = (eventId: string): WebhookEvent => ({ kind: 'results', eventId, results: [] });
const callOf = (body: string) => ({ event: 'stk', contentType: 'application/json', body });

describe('storing webhook calls together', () => {
  let store: Store;
  const now = new Date('2026-11-28T09:00:00Z');

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    await migrateProviders(store);
  });
  afterAll(() => store.close());

  it('stores every call of a batch in its order, and only the first of a repeated event id', async () => {
    await expect(
      storeWebhookCall(store, 'daraja', callOf('before'), results('ev-before'), now),
    ).resolves.toBe(true);
    const stored = await storeWebhookCalls(
      store,
      [
        { provider: 'daraja', call: callOf('one'), event: results('ev-1') },
        { provider: 'daraja', call: callOf('again'), event: results('ev-before') },
        { provider: 'daraja', call: callOf('{'), event: { kind: 'garbled', problem: 'not JSON' } },
        { provider: 'daraja', call: callOf('one, repeated'), event: results('ev-1') },
        { provider: 'africastalking', call: callOf('same id, other provider'), event: results('ev-1') },
        { provider: 'daraja', call: callOf('{'), event: { kind: 'garbled', problem: 'not JSON' } },
      ],
      now,
    );
    expect(stored).toEqual([true, false, true, false, true, true]);
    const waiting = await unappliedWebhookCalls(store, 10, now);
    expect(waiting.map((entry) => [entry.provider, entry.call.body])).toEqual([
      ['daraja', 'before'],
      ['daraja', 'one'],
      ['africastalking', 'same id, other provider'],
    ]);
  });

  it('settles a garbled or ignored call as it stores it, with why', async () => {
    await storeWebhookCalls(
      store,
      [
        {
          provider: 'daraja',
          call: callOf('x'),
          event: { kind: 'ignored', eventId: 'ev-ign', why: 'a test' },
        },
      ],
      now,
    );
    const { rows } = await store.query<{ outcome: string; settled: boolean }>(
      `SELECT outcome, applied_at IS NOT NULL AS settled FROM provider_webhook_inbox ORDER BY id`,
    );
    expect(rows).toEqual([
      { outcome: '', settled: false },
      { outcome: '', settled: false },
      { outcome: 'garbled', settled: true },
      { outcome: '', settled: false },
      { outcome: 'garbled', settled: true },
      { outcome: 'ignored: a test', settled: true },
    ]);
  });

  it('stores nothing, and answers nothing, for no calls', async () => {
    await expect(storeWebhookCalls(store, [], now)).resolves.toEqual([]);
  });
});
