// The provider webhook route on the real server with the worker in the process, on each store: a pushed
// result is stored before it is answered, once per provider event id, and applied by the worker; what
// cannot be read is kept for inspection; a wrong token, provider, method or source learns nothing.

import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from './testing/eventually.js';
import { captureLogs } from './testing/log-capture.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf } from './testing/wire.js';

const token = 'whk_0123456789abcdefghijklmnopqrstuv';

interface InboxRow {
  event: string;
  event_id: string | null;
  problem: string;
  outcome: string;
  applied: boolean;
}

describe.each(openTestStores())('provider webhooks on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store, {
      worker: true,
      // Results are only ever pushed here: the simulator's own would come after the test has ended.
      env: { PROVIDER_WEBHOOK_TOKEN: token, SIMULATOR_DELAY_MS: '3600000' },
    });
  }, 60_000);
  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  const push = (path: string, body: string, init: RequestInit = {}) =>
    fetch(`${service.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
      ...init,
    });

  async function inbox(): Promise<InboxRow[]> {
    const { rows } = await store.query<InboxRow>(
      `SELECT event, event_id, problem, outcome, applied_at IS NOT NULL AS applied FROM provider_webhook_inbox
       ORDER BY id`,
    );
    return rows;
  }

  async function submittedFloat(): Promise<string> {
    const { token: apiToken } = await service.createCaller({ float: 1_000_000n });
    const sent = await envelopeOf(
      await service.call('send_agent_float', {
        token: apiToken,
        json: { mobile: '254712345678', amount: '100', agent_number: '300300', store_number: '400400' },
      }),
    );
    return (sent.data['transaction'] as { reference: string }).reference;
  }

  it('stores a pushed result once per event id, answers it, and the worker applies it', async () => {
    const reference = await submittedFloat();
    const result = JSON.stringify({
      id: `evt-${reference}`,
      reference,
      outcome: 'completed',
      provider_code: 'PUSHED-1',
    });
    const first = await push(`/providers/sandbox/${token}/result`, result);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({ received: true });
    const again = await push(`/providers/sandbox/${token}/result`, result);
    expect(again.status).toBe(200);

    const completed = await eventually('the pushed completion to be applied', async () => {
      const found = await service.ledger.findTransaction(reference);
      return found?.state === 'completed' ? found : undefined;
    });
    expect(completed.code).toBe('PUSHED-1');
    const rows = (await inbox()).filter((row) => row.event_id === `evt-${reference}`);
    expect(rows).toEqual([
      { event: 'result', event_id: `evt-${reference}`, problem: '', outcome: 'complete', applied: true },
    ]);
  });

  it('keeps what it cannot read, answers the provider why, and crashes nothing', async () => {
    const before = (await inbox()).length;
    const garbled = await push(`/providers/sandbox/${token}/result`, '{"id": 7');
    expect(garbled.status).toBe(400);
    expect(await garbled.json()).toEqual({ error: 'the body is not JSON' });
    const unknown = await push(`/providers/sandbox/${token}/refund-status`, '{"anything":true}');
    expect(unknown.status).toBe(200);
    const kept = (await inbox()).slice(before);
    expect(kept).toEqual([
      { event: 'result', event_id: null, problem: 'the body is not JSON', outcome: 'garbled', applied: true },
      {
        event: 'refund-status',
        event_id: expect.stringMatching(/^refund-status:[0-9a-f]{64}$/) as string,
        problem: '',
        outcome: 'ignored: no such event: refund-status',
        applied: true,
      },
    ]);
    // The API still answers.
    expect((await service.call('get_balance', {})).status).toBe(401);
  });

  it('answers a wrong token, an unknown provider and a bad escape with a plain 404, and GET with 405', async () => {
    const before = (await inbox()).length;
    for (const path of [
      `/providers/sandbox/${token}x/result`,
      `/providers/daraja/${token}/result`,
      `/providers/sandbox/%E0%A4%A/result`,
    ]) {
      const answer = await push(path, '{}');
      expect(answer.status).toBe(404);
      expect(await answer.text()).toBe('not found');
    }
    const get = await fetch(`${service.url}/providers/sandbox/${token}/result`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect(await inbox()).toHaveLength(before);
  });
});

describe.each(openTestStores())('provider webhooks from outside the allowed sources, on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store, {
      env: { PROVIDER_WEBHOOK_TOKEN: token, PROVIDER_WEBHOOK_SOURCES: '196.201.214.0/24, 2001:db8::/32' },
    });
  }, 60_000);
  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  it('refuses a caller whose address is not listed, and stores nothing', async () => {
    const answer = await fetch(`${service.url}/providers/sandbox/${token}/result`, {
      method: 'POST',
      body: '{}',
    });
    expect(answer.status).toBe(403);
    const { rows } = await store.query<{ count: number }>(
      'SELECT count(*)::int AS count FROM provider_webhook_inbox',
    );
    expect(rows[0]?.count).toBe(0);
  });
});

describe.each(openTestStores())('provider webhooks under load, on $name', (stores) => {
  let store: Store;
  const logs = captureLogs('info');
  const services: TestService[] = [];

  beforeAll(async () => {
    store = await stores.open();
  }, 60_000);
  afterAll(async () => {
    for (const service of services) await service.stop();
    await stores.close(store);
  });

  async function serviceWith(env: Record<string, string>): Promise<TestService> {
    const service = await startTestService(store, {
      env: { PROVIDER_WEBHOOK_TOKEN: token, SIMULATOR_DELAY_MS: '3600000', ...env },
      logger: logs.logger,
    });
    services.push(service);
    return service;
  }

  const result = (id: string) =>
    JSON.stringify({ id, reference: `TX${id}`, outcome: 'completed', provider_code: 'P' });
  const push = (service: TestService, id: string) =>
    fetch(`${service.url}/providers/sandbox/${token}/result`, { method: 'POST', body: result(id) });

  it('never writes the webhook token to the log: the request line shows *** in its place', async () => {
    const service = await serviceWith({});
    expect((await push(service, `log-${Date.now()}`)).status).toBe(200);
    expect(
      (await fetch(`${service.url}/providers/sandbox/${token}x/result`, { method: 'POST' })).status,
    ).toBe(404);
    const requests = logs.records().filter((record) => record['msg'] === 'request');
    expect(requests.map((record) => record['path'])).toEqual(
      expect.arrayContaining(['/providers/sandbox/***/result']),
    );
    expect(logs.lines.filter((line) => line.includes(token))).toEqual([]);
  });

  it('limits each source address, answering 429 with Retry-After once its bucket is empty', async () => {
    const service = await serviceWith({ PROVIDER_WEBHOOK_RATE_LIMIT: '1' });
    const answers = [];
    for (let index = 0; index < 3; index += 1)
      answers.push(await push(service, `rate-${Date.now()}-${index}`));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429]);
    expect(Number(answers[2]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('answers 429 while a provider has PROVIDER_INBOX_LIMIT calls waiting, and keeps every call it stored', async () => {
    const { rows: before } = await store.query<{ count: number }>(
      `SELECT count(*)::int AS count FROM provider_webhook_inbox WHERE applied_at IS NULL`,
    );
    const limit = (before[0]?.count ?? 0) + 2;
    const service = await serviceWith({ PROVIDER_INBOX_LIMIT: String(limit) });
    const ids = [1, 2, 3].map((index) => `full-${Date.now()}-${index}`);
    const statuses = [];
    for (const id of ids) statuses.push((await push(service, id)).status);
    expect(statuses).toEqual([200, 200, 429]);
    const { rows } = await store.query<{ event_id: string }>(
      `SELECT event_id FROM provider_webhook_inbox WHERE event_id = ANY($1::text[]) ORDER BY id`,
      [ids],
    );
    expect(rows.map((row) => row.event_id)).toEqual(ids.slice(0, 2));
  });
});
