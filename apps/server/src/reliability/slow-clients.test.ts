// Slow clients: a client that trickles its headers is cut off at the headers timeout, one that trickles its
// body at the request timeout, each with a 1000 envelope (HTTP 408) before the connection closes; and while
// many of them hang on, everyone else is served at normal speed. The timeouts are configurable
// (HEADERS_TIMEOUT_MS, REQUEST_TIMEOUT_MS; 10 s and 30 s by default), short here so the test takes seconds.

import { connect } from 'node:net';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeJsonEnvelope } from '@topup/envelope';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';

const HEADERS_TIMEOUT_MS = 1_000;
const REQUEST_TIMEOUT_MS = 2_000;
// Node checks the timeouts once a second at most, so a cut-off may come up to that much later.
const CHECK_SLACK_MS = 1_500;

interface Trickle {
  /** Resolves when the server closes the connection: what it sent, and after how long. */
  readonly closed: Promise<{ readonly received: string; readonly afterMs: number }>;
  stop(): void;
}

/** Opens a connection, sends `opening` at once, then one byte of `drip` every 100 ms until closed. */
function trickle(url: string, opening: string, drip: string): Trickle {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  const socket: Socket = connect(Number(port), hostname);
  let received = '';
  let stopped = false;
  socket.on('data', (chunk: Buffer) => (received += chunk.toString('utf8')));
  socket.on('error', () => undefined);
  socket.on('connect', () => {
    socket.write(opening);
    void (async () => {
      for (let index = 0; !stopped && !socket.destroyed; index += 1) {
        socket.write(drip[index % drip.length] ?? 'x');
        await sleep(100);
      }
    })();
  });
  const closed = new Promise<{ received: string; afterMs: number }>((resolve) =>
    socket.on('close', () => {
      stopped = true;
      resolve({ received, afterMs: performance.now() - started });
    }),
  );
  return {
    closed,
    stop() {
      stopped = true;
      socket.destroy();
    },
  };
}

function refusal(received: string): { status: number; code: string } {
  const [head = '', body = ''] = received.split('\r\n\r\n');
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    code: decodeJsonEnvelope(body).status.code,
  };
}

describe.each(openTestStores())('slow clients, on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let token: string;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store, {
      env: { HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS), REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) },
    });
    ({ token } = await service.createCaller());
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  it('cuts off a client that trickles its headers at the headers timeout, with a 1000 envelope', async () => {
    const slow = trickle(service.url, 'POST /api/get_balance HTTP/1.1\r\nHost: x\r\nX-Slow: ', 'abcdefgh');
    const { received, afterMs } = await slow.closed;
    expect(afterMs).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 100);
    expect(afterMs).toBeLessThan(HEADERS_TIMEOUT_MS + CHECK_SLACK_MS);
    expect(refusal(received)).toEqual({ status: 408, code: '1000' });
  });

  it('cuts off a client that trickles its body at the request timeout, with a 1000 envelope', async () => {
    const head =
      'POST /api/get_balance HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
      `Authorization: Bearer ${token}\r\nContent-Length: 10000\r\n\r\n`;
    const slow = trickle(service.url, head, '{"a":"' + 'x'.repeat(100));
    const { received, afterMs } = await slow.closed;
    expect(afterMs).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 100);
    expect(afterMs).toBeLessThan(REQUEST_TIMEOUT_MS + CHECK_SLACK_MS);
    expect(refusal(received)).toEqual({ status: 408, code: '1000' });
  });

  it('serves other callers at normal speed while 200 slow clients hang on', async () => {
    const slow = Array.from({ length: 200 }, (_, index) =>
      index % 2 === 0
        ? trickle(service.url, 'POST /api/get_balance HTTP/1.1\r\nHost: x\r\nX-Slow: ', 'abc')
        : trickle(
            service.url,
            `POST /api/get_balance HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n`,
            'xyz',
          ),
    );
    try {
      await sleep(300);
      const timings: number[] = [];
      for (let index = 0; index < 20; index += 1) {
        const started = performance.now();
        const response = await service.call('get_balance', { token });
        expect(response.status).toBe(200);
        await response.arrayBuffer();
        timings.push(performance.now() - started);
      }
      expect(Math.max(...timings)).toBeLessThan(500);
    } finally {
      for (const client of slow) client.stop();
    }
  });
});
