import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackDeliveryView } from '@topup/envelope';
import { startCallbackSink } from './testing/callback-sink.js';
import { runCli, startService } from './testing/child-process.js';
import { eventually } from './testing/eventually.js';

describe('the operator CLI and `pnpm start` as real processes', () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'topup-cli-'));
    env = {
      TOPUP_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      SIMULATOR_DELAY_MS: '100',
      DATABASE_URL: '',
    };
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates and funds an account, then the started service answers it over HTTP', async () => {
    const created = await runCli(
      ['account', 'create', '--name', 'Acme Agencies', '--mobile', '254700000100', '--json'],
      env,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const { account, token } = JSON.parse(created.stdout) as { account: string; token: string };
    expect(token).toMatch(/^tk_test_[A-Za-z0-9]{32}$/);

    const funded = await runCli(
      ['channel', 'fund', '--account', account, '--channel', 'float', '--amount', '5000', '--json'],
      env,
    );
    expect(funded.code).toBe(0);
    expect(JSON.parse(funded.stdout)).toMatchObject({ available: '5000.00' });

    const service = await startService('src/main.ts', env);
    try {
      expect(service.output()).not.toContain('demo account');
      const response = await fetch(`${service.url}/api/send_agent_float`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ mobile: '254733000123', amount: '1000' }),
      });
      expect(response.status).toBe(200);
      const envelope = (await response.json()) as {
        status: { code: string };
        data: { channel: { balance: number } };
      };
      expect(envelope.status.code).toBe('0000');
      expect(envelope.data.channel.balance).toBe(4000);
    } finally {
      expect(await service.stop()).toBe(0);
    }

    const verified = await runCli(['ledger', 'verify', '--json'], env);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
  });

  it('explains a bad option instead of failing with a stack trace', async () => {
    const result = await runCli(
      ['channel', 'fund', '--account', 'acc_x', '--channel', 'savings', '--amount', '1'],
      env,
    );
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('--channel must be float or airtime, received "savings"');
  });

  it('manages callback endpoints under the API’s URL policy, and lists and resends deliveries', async () => {
    const sink = await startCallbackSink(() => ({ status: 200, body: 'got it' }));
    try {
      const created = await runCli(['account', 'create', '--name', 'Hooks Ltd', '--json'], env);
      const { account, token } = JSON.parse(created.stdout) as { account: string; token: string };

      const refused = await runCli(
        ['endpoint', 'add', '--account', account, '--url', 'https://user:pass@127.0.0.1/hooks'],
        env,
      );
      expect(refused.code).toBe(64);
      expect(refused.stderr).toContain('--url refused:');

      const added = await runCli(
        ['endpoint', 'add', '--account', account, '--url', sink.url, '--format', 'json', '--json'],
        env,
      );
      expect(added.code).toBe(0);
      const { endpoint, secret } = JSON.parse(added.stdout) as { endpoint: string; secret: string };
      expect(secret).toMatch(/^whsec_/);
      const listed = await runCli(['endpoint', 'list', '--account', account, '--json'], env);
      expect(JSON.parse(listed.stdout)).toMatchObject([{ id: endpoint, url: sink.url, enabled: true }]);
      expect(listed.stdout).not.toContain(secret);
      await runCli(['channel', 'fund', '--account', account, '--channel', 'float', '--amount', '500'], env);

      const service = await startService('src/main.ts', env);
      let reference = '';
      try {
        const response = await fetch(`${service.url}/api/send_agent_float`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ mobile: '254733000123', amount: '100' }),
        });
        reference = ((await response.json()) as { data: { transaction: { reference: string } } }).data
          .transaction.reference;
        await eventually('the callback', () =>
          sink.arrived.find((callback) => callback.reference === reference),
        );
        // The worker records the attempt after the answer arrives; stopping waits for it.
      } finally {
        expect(await service.stop()).toBe(0);
      }

      const deliveries = await runCli(
        ['callback', 'deliveries', '--account', account, '--reference', reference, '--json'],
        env,
      );
      expect(deliveries.code).toBe(0);
      const [delivery] = JSON.parse(deliveries.stdout) as CallbackDeliveryView[];
      expect(delivery).toMatchObject({
        endpoint_id: endpoint,
        reference,
        status: 'delivered',
        attempts: [{ http_status: '200', outcome: 'delivered', response_excerpt: 'got it', error: '' }],
      });
      const failed = await runCli(
        ['callback', 'deliveries', '--account', account, '--status', 'failed', '--json'],
        env,
      );
      expect(JSON.parse(failed.stdout)).toEqual([]);

      const resent = await runCli(
        ['callback', 'resend', '--account', account, '--reference', reference, '--json'],
        env,
      );
      expect(JSON.parse(resent.stdout)).toEqual({ reference, deliveries: 1 });
      const pending = await runCli(
        ['callback', 'deliveries', '--account', account, '--status', 'pending'],
        env,
      );
      expect(pending.stdout).toContain(`${delivery?.id}  ${reference}  ${endpoint}  pending  next attempt `);
      expect(pending.stdout).toContain('delivered      200');

      const badStatus = await runCli(
        ['callback', 'deliveries', '--account', account, '--status', 'lost'],
        env,
      );
      expect(badStatus.code).toBe(64);
      expect(badStatus.stderr).toContain('--status must be pending, delivered or failed, received "lost"');
    } finally {
      await sink.close();
    }
  }, 180_000);

  it('creates a demo account with ready-to-paste curl commands on a brand-new data folder', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'topup-fresh-'));
    try {
      const service = await startService('src/main.ts', { ...env, TOPUP_DATA_DIR: fresh });
      try {
        const token = /API token, shown only now: (tk_test_\w+)/.exec(service.output())?.[1];
        expect(token).toBeDefined();
        expect(service.output()).toContain(`curl -s ${service.url}/api/send_agent_float`);
        const balance = await fetch(`${service.url}/api/get_balance`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token ?? ''}` },
        });
        expect(((await balance.json()) as { status: { code: string } }).status.code).toBe('0000');
      } finally {
        await service.stop();
      }
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });
});
