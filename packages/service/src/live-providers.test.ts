// The live providers as a process builds them from its configuration, against the fake Africa's Talking
// over real HTTP: the status callback URL for AT's dashboard is logged without the webhook token; a send
// refused because the airtime wallet cannot pay for it raises topup_provider_wallet_low_total in the
// process's metrics and is logged at error; a send taken is logged with AT's discount.

import { Writable } from 'node:stream';
import { legId, openStore } from '@topup/ledger';
import { startFakeAfricasTalking, type FakeAfricasTalking } from '@topup/providers/fakes';
import { requestAirtime } from '@topup/providers/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';
import { assembleCore, type Core } from './core.js';

const account = { username: 'topup', apiKey: 'at-key-value' };
const webhookToken = 'wh_0123456789abcdef0123456789abcdef';

describe('Africa’s Talking as a live provider of the service', () => {
  let fake: FakeAfricasTalking;
  let core: Core;
  let accountId: string;
  const lines: { level: number; msg: string; [field: string]: unknown }[] = [];

  beforeAll(async () => {
    fake = await startFakeAfricasTalking({ ...account, deliveryMs: 5_000 });
    const config = loadConfig({
      TOPUP_MODE: 'live',
      PROVIDERS: 'CarrierA=africastalking',
      PUBLIC_BASE_URL: 'https://topup.example',
      PROVIDER_WEBHOOK_TOKEN: webhookToken,
      AT_BASE_URL: fake.url,
      AT_USERNAME: account.username,
      AT_API_KEY: account.apiKey,
    });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString('utf8')) as (typeof lines)[number]);
        done();
      },
    });
    core = assembleCore(config, await openStore({ dataDir: 'memory://' }), { logger: pino(sink) });
    accountId = (await core.ledger.createAccount({ name: 'Duka Ltd' })).id;
  }, 60_000);
  afterAll(async () => {
    await fake.close();
    await core.close();
  });

  const deliver = async (mobile: string) => {
    const transaction = await requestAirtime(core.ledger, accountId, mobile, '254708374149');
    const provider = core.providers.forNetwork('CarrierA');
    const order = {
      id: legId(transaction.reference, 'delivery'),
      kind: 'delivery',
      transaction,
      paymentReference: 'TK00000001',
    } as const;
    return { order, answer: await provider?.submitLeg?.(order) };
  };

  it("logs Africa's Talking's status callback URL for the dashboard with *** in place of the webhook token", () => {
    expect(lines).toContainEqual(
      expect.objectContaining({
        statusCallbackUrl: 'https://topup.example/providers/africastalking/***/airtime-status',
        msg: expect.stringContaining('PROVIDER_WEBHOOK_TOKEN in place of ***') as unknown,
      }),
    );
    expect(JSON.stringify(lines)).not.toContain(webhookToken);
  });

  it('counts and logs at error a send refused for the airtime wallet', async () => {
    const { order, answer } = await deliver('254711080007');
    expect(answer).toMatchObject({ kind: 'refused', reason: 'Insufficient Credit' });
    expect(await core.metrics.registry.getSingleMetricAsString('topup_provider_wallet_low_total')).toContain(
      'topup_provider_wallet_low_total{provider="africastalking"} 1',
    );
    expect(lines.find((line) => line['reference'] === order.id)).toMatchObject({
      level: 50,
      provider: 'africastalking',
      amountMinor: '5000',
      reason: 'Insufficient Credit',
    });
  });

  it('logs each send taken with AT’s discount, and counts no low wallet', async () => {
    const { order, answer } = await deliver('254711082468');
    expect(answer).toEqual({ kind: 'accepted' });
    expect(lines.find((line) => line['reference'] === order.id)).toMatchObject({
      level: 30,
      msg: 'airtime handed to the carrier',
      discount: 'KES 2.0000',
    });
    expect(await core.metrics.registry.getSingleMetricAsString('topup_provider_wallet_low_total')).toContain(
      'topup_provider_wallet_low_total{provider="africastalking"} 1',
    );
  });
});
