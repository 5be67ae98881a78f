import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@topup/ledger';
import { pino } from 'pino';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';

describe.each(openTestStores())('operational endpoints and logs on $name', (stores) => {
  let store: Store;
  let service: TestService;
  const lines: string[] = [];

  beforeAll(async () => {
    store = await stores.open();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    service = await startTestService(store, { logger: pino({ level: 'info' }, sink) });
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  it('answers /healthz and /readyz', async () => {
    expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
    const ready = await fetch(`${service.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready', checks: { store: 'ok', redis: 'not configured' } });
  });

  it('gives operational routes a request id too, without counting them as API requests', async () => {
    for (const path of ['/healthz', '/readyz', '/metrics', '/openapi.json']) {
      const response = await fetch(`${service.url}${path}`, {
        headers: { 'X-Request-Id': `op-${path.slice(1)}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-request-id')).toBe(`op-${path.slice(1)}`);
      await response.arrayBuffer();
      const made = await fetch(`${service.url}${path}`);
      expect(made.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
      await made.arrayBuffer();
    }
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).not.toMatch(/topup_requests_total\{function="none",code="none"\}/);
  });

  it('counts requests by function and code in /metrics', async () => {
    const { token } = await service.createCaller();
    await (await service.call('get_balance', { token })).arrayBuffer();
    const metrics = await (await fetch(`${service.url}/metrics`)).text();
    expect(metrics).toMatch(/topup_requests_total\{function="get_balance",code="0000"\} [1-9]/);
    expect(metrics).toContain('topup_request_duration_seconds_bucket');
    expect(metrics).toContain('topup_ledger_batch_size');
  });

  it('echoes a sane X-Request-Id and makes one otherwise', async () => {
    const echoed = await service.call('get_balance', { headers: { 'X-Request-Id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const made = await service.call('get_balance', { headers: { 'X-Request-Id': 'bad id with spaces' } });
    expect(made.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{24}$/);
  });

  it('logs one line per request with its id, and never a token', async () => {
    const { token } = await service.createCaller({ float: 10_000_000n });
    const response = await service.call('send_agent_float', {
      token,
      json: { mobile: '254733000123', amount: '100' },
      headers: { 'X-Request-Id': 'req-log-check' },
    });
    await response.arrayBuffer();
    const line = lines.find((text) => text.includes('req-log-check'));
    expect(line).toBeDefined();
    expect(JSON.parse(line ?? '{}')).toMatchObject({
      function: 'send_agent_float',
      code: '0000',
      status: 200,
    });
    expect(lines.join('\n')).not.toContain(token);
    expect(lines.join('\n')).not.toContain(token.slice(8));
  });
});
