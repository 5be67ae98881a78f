// A token past its rate limit is refused before its body is read: reading and parsing a body (up to 1 MiB
// of XML) is the expensive part of a request. Proved with the 401st request of a burst of 400, whose 1 MiB
// body never arrives: it is answered 5000/429 at once, where reading the body would have waited for it.
// And resend_callback, which queues a delivery per endpoint, is charged like the money operations.

import { request } from 'node:http';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frozenRateLimiter } from '../testing/frozen-rate-limiter.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';
import { envelopeOf } from '../testing/wire.js';

const burst = 400;

/** POSTs headers announcing a 1 MiB XML body and sends none of it; resolves with the status and body. */
function answerWithoutBody(url: string, token: string): Promise<{ status: number; body: string }> {
  const target = new URL(`${url}/api/send_agent_float`);
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent: false,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'text/xml',
          'Content-Length': String(1024 * 1024),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          outgoing.destroy();
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') });
        });
      },
    );
    outgoing.setTimeout(3_000, () => outgoing.destroy(new Error('no answer within 3000 ms')));
    outgoing.on('error', reject);
    outgoing.flushHeaders();
  });
}

describe.each(openTestStores())('the rate limit before the body, on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    // A bucket whose clock stands still never refills: the burst alone decides, however slow the machine.
    service = await startTestService(store, { rateLimiter: frozenRateLimiter(burst) });
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  it('refuses the 401st request of a burst without reading its body', async () => {
    const { token } = await service.createCaller();
    const invalidXml = '<xml><mobile>not a number</mobile>';
    const statuses: number[] = [];
    for (let sent = 0; sent < burst; sent += 50) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          service.call('send_agent_float', {
            token,
            body: invalidXml,
            headers: { 'Content-Type': 'text/xml' },
          }),
        ),
      );
      for (const answer of answers) {
        statuses.push(answer.status);
        await answer.arrayBuffer();
      }
    }
    expect(statuses.filter((status) => status === 429)).toHaveLength(0);

    const started = Date.now();
    const refused = await answerWithoutBody(service.url, token);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body)).toMatchObject({ status: { code: '5000' } });
  });

  it('charges resend_callback to the token’s bucket like the money operations', async () => {
    const { token } = await service.createCaller();
    // Ten batches of 41: ten requests past the burst.
    let limited = 0;
    for (let batch = 0; batch < 10; batch += 1) {
      const answers = await Promise.all(
        Array.from({ length: 41 }, () =>
          service.call('resend_callback', { token, json: { reference: 'TXNOTATHING' } }),
        ),
      );
      for (const answer of answers) {
        const envelope = await envelopeOf(answer);
        if (answer.status === 429) {
          limited += 1;
          expect(envelope.status.code).toBe('5000');
        } else {
          expect(envelope.status.code).toBe('3000');
        }
      }
    }
    expect(limited).toBe(10);
  });
});
