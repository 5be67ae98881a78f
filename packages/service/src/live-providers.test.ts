import { openStore, type Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { liveProviders } from './live-providers.js';
import { createLogger } from './logger.js';

const webhookToken = 'whk_0123456789abcdefghijklmnopqrstuv';

describe('the live providers', () => {
  let store: Store;

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
  }, 60_000);
  afterAll(async () => {
    await store.close();
  });

  it("log Africa's Talking's status callback URL for the dashboard with *** in place of the webhook token", () => {
    const config = loadConfig({
      TOPUP_MODE: 'live',
      PROVIDERS: 'CarrierA=africastalking',
      PUBLIC_BASE_URL: 'https://topup.example',
      PROVIDER_WEBHOOK_TOKEN: webhookToken,
      AT_USERNAME: 'topup',
      AT_API_KEY: 'at-key-value',
    });
    const lines: string[] = [];
    const logger = createLogger('info', { write: (line: string) => lines.push(line) });
    const make = liveProviders.get('africastalking');
    if (make === undefined) throw new Error('expected an africastalking factory');
    make({ config, store, logger });
    expect(lines.map((line) => JSON.parse(line) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        statusCallbackUrl: 'https://topup.example/providers/africastalking/***/airtime-status',
        msg: expect.stringContaining('PROVIDER_WEBHOOK_TOKEN in place of ***') as unknown,
      }),
    ]);
    expect(lines.join('\n')).not.toContain(webhookToken);
  });
});
