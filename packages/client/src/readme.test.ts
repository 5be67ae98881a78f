// The README's examples are files under examples/: this test checks that every TypeScript block in the
// README is one of them, exactly, then runs the files, so the text a reader copies is code that compiles
// (examples/ is part of the package's typecheck) and works.

import { readFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cancellationCallback, encodeJson, success, testCallback } from '@topup/envelope';
import { generateSecret, signCallback } from '@topup/signing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callbackReceiver } from '../examples/callback-receiver.js';
import { topupClient } from '../examples/create-client.js';
import { expressCallbackApp } from '../examples/express-receiver.js';
import { handleEvent, outcomes } from '../examples/handle-event.js';
import { koaCallbackApp } from '../examples/koa-receiver.js';
import { sendStaffAirtime } from '../examples/send-airtime.js';
import type { CallbackEvent } from './parse-callback.js';
import { parseCallback } from './parse-callback.js';
import { createClient } from './create-client.js';
import { agentFloatData, airtimeData, sendAirtimeData } from './testing/sample-data.js';

const packageRoot = new URL('../', import.meta.url);
const marker = /<!-- example: (\S+) -->\s*```ts\n([\s\S]*?)```/g;

async function readme(): Promise<string> {
  return readFile(new URL('README.md', packageRoot), 'utf8');
}

async function readmeExamples(): Promise<Map<string, string>> {
  return new Map([...(await readme()).matchAll(marker)].map((match) => [match[1] ?? '', match[2] ?? '']));
}

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('README', () => {
  it('shows each example file exactly as it is', async () => {
    const examples = await readmeExamples();
    expect([...examples.keys()].sort()).toStrictEqual([
      'examples/callback-receiver.ts',
      'examples/create-client.ts',
      'examples/errors.ts',
      'examples/express-receiver.ts',
      'examples/handle-event.ts',
      'examples/koa-receiver.ts',
      'examples/quick-start.ts',
      'examples/read-every-page.ts',
      'examples/results.ts',
      'examples/send-airtime.ts',
      'examples/wait-for-transaction.ts',
    ]);
    for (const [path, shown] of examples) {
      expect(shown, `the README block of ${path}`).toBe(await readFile(new URL(path, packageRoot), 'utf8'));
    }
  });

  it('has no TypeScript block that is not an example file, so none goes uncompiled', async () => {
    const blocks = (await readme()).match(/```(?:ts|typescript|tsx)\n/g) ?? [];
    expect(blocks).toHaveLength((await readmeExamples()).size);
  });

  it('creates the client with every option written out, sending to the base URL with the token', async () => {
    const sent: { url: string; authorization: string | null }[] = [];
    vi.stubGlobal('fetch', (url: string | URL, init?: RequestInit) => {
      sent.push({ url: String(url), authorization: new Headers(init?.headers).get('authorization') });
      const answer = encodeJson(success('Balance found', { channels: [] }));
      return Promise.resolve(
        new Response(answer, { headers: { 'Content-Type': 'application/json; charset=utf-8' } }),
      );
    });
    try {
      const topup = topupClient('tk_test_readme');
      expect((await topup.getBalance()).channels).toStrictEqual([]);
      expect(sent).toStrictEqual([
        { url: 'https://topup.example.com/api/get_balance', authorization: 'Bearer tk_test_readme' },
      ]);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('sends staff airtime as one keyed request and reports each recipient in order', async () => {
    const sent: { body: string; key: string | null }[] = [];
    const fetchDouble: typeof fetch = (_url, init) => {
      sent.push({
        body: typeof init?.body === 'string' ? init.body : '',
        key: new Headers(init?.headers).get('idempotency-key'),
      });
      const answer = encodeJson(success('Airtime send requested', sendAirtimeData()));
      return Promise.resolve(
        new Response(answer, { headers: { 'Content-Type': 'application/json; charset=utf-8' } }),
      );
    };
    const topup = createClient({
      baseUrl: 'https://topup.example.com',
      token: 'tk_test_readme',
      fetch: fetchDouble,
    });
    const report = await sendStaffAirtime(topup, '2025-03', [
      { mobile: '254733123456', amount: 50 },
      { mobile: '254712340003', amount: 20 },
    ]);
    expect(sent).toStrictEqual([
      {
        body:
          '{"recipients":[{"mobile":"254733123456","amount":50},{"mobile":"254712340003","amount":20}],' +
          '"note":"staff airtime 2025-03"}',
        key: 'staff-airtime-2025-03',
      },
    ]);
    expect(report).toStrictEqual([
      { mobile: '254733123456', reference: 'TXS1A2B3C4', refused: undefined },
      {
        mobile: '254712340003',
        reference: 'TXS5D6E7F8',
        refused: 'recipient <254712340003> refused by the carrier',
      },
    ]);
  });

  it('handles each callback once, recording completions and cancellations by reference', async () => {
    const secret = generateSecret();
    const timestamp = Math.floor(Date.now() / 1000);
    const eventOf = (id: string, body: string) =>
      parseCallback(body, signCallback({ secrets: [secret], id, timestamp, body }), [secret]);
    const completed = encodeJson(success('Airtime delivered', airtimeData('TXHANDLED01')));
    const cancelled = encodeJson(
      cancellationCallback('send_agent_float', ['payment declined'], agentFloatData('TXHANDLED02')),
    );

    await handleEvent(eventOf('cb_handled_1', completed));
    await handleEvent(eventOf('cb_handled_2', cancelled));
    expect(outcomes.get('TXHANDLED01')).toStrictEqual({ kind: 'completed', detail: 'Airtime delivered' });
    expect(outcomes.get('TXHANDLED02')).toStrictEqual({ kind: 'cancelled', detail: 'payment declined' });
    // A retry of the first callback after the record changed is dropped by its id.
    outcomes.set('TXHANDLED01', { kind: 'completed', detail: 'settled' });
    await handleEvent(eventOf('cb_handled_1', completed));
    expect(outcomes.get('TXHANDLED01')).toStrictEqual({ kind: 'completed', detail: 'settled' });
    // A test callback records nothing.
    const recorded = outcomes.size;
    await handleEvent(eventOf('test_handled', encodeJson(testCallback('ep_4KX2', new Date()))));
    expect(outcomes.size).toBe(recorded);
  });

  type StartReceiver = (
    secrets: readonly string[],
    onEvent: (event: CallbackEvent) => Promise<void>,
  ) => Promise<Server>;

  const receivers: [string, StartReceiver][] = [
    [
      'node:http',
      async (secrets, onEvent) => {
        const server = callbackReceiver(secrets, onEvent);
        await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
        return server;
      },
    ],
    [
      'Koa',
      async (secrets, onEvent) => {
        const server = koaCallbackApp(secrets, onEvent).listen(0, '127.0.0.1');
        await new Promise<void>((resolve) => server.once('listening', resolve));
        return server;
      },
    ],
    [
      'Express',
      async (secrets, onEvent) => {
        const server = expressCallbackApp(secrets, onEvent).listen(0, '127.0.0.1');
        await new Promise<void>((resolve) => server.once('listening', resolve));
        return server;
      },
    ],
  ];

  it.each(receivers)(
    'runs the %s callback receiver: a signed callback is taken, a forged one refused',
    async (_name, start) => {
      const secret = generateSecret();
      const events: CallbackEvent[] = [];
      const receiver = await start([secret], (event) => {
        events.push(event);
        return Promise.resolve();
      });
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/topup/callbacks`;
      try {
        const body = encodeJson(success('Airtime delivered', airtimeData('TXREADME01')));
        const timestamp = Math.floor(Date.now() / 1000);
        const signed = signCallback({ secrets: [secret], id: 'cb_readme', timestamp, body });
        const taken = await fetch(url, {
          method: 'POST',
          headers: { ...signed, 'Content-Type': 'application/json', Accept: 'text/xml' },
          body,
        });
        expect(taken.status).toBe(200);
        expect(taken.headers.get('content-type')).toBe('text/xml; charset=utf-8');
        expect(await taken.text()).toContain('<message>Callback processed</message>');
        expect(
          events.map((event) => [
            event.kind,
            event.id,
            event.kind === 'test' ? '' : event.transaction.reference,
          ]),
        ).toStrictEqual([['completed', 'cb_readme', 'TXREADME01']]);

        const forged = signCallback({ secrets: [generateSecret()], id: 'cb_forged', timestamp, body });
        const refused = await fetch(url, {
          method: 'POST',
          headers: { ...forged, 'Content-Type': 'application/json' },
          body,
        });
        expect(refused.status).toBe(400);
        expect(events).toHaveLength(1);
      } finally {
        receiver.closeAllConnections();
        await new Promise<void>((resolve) => {
          receiver.close(() => {
            resolve();
          });
        });
      }
    },
  );

  it.each(receivers)(
    'has the %s callback receiver answer 413 to a body over 1 MiB, declared or chunked, acting on none',
    { timeout: 30_000 },
    async (_name, start) => {
      const secret = generateSecret();
      const events: CallbackEvent[] = [];
      const receiver = await start([secret], (event) => {
        events.push(event);
        return Promise.resolve();
      });
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/topup/callbacks`;
      const mebibyte = 1024 * 1024;
      try {
        expect(await postBytes(url, mebibyte + 1, 'declared')).toBe(413);
        expect(await postBytes(url, 2 * mebibyte, 'chunked')).toBe(413);
        expect(await postBytes(url, 10 * mebibyte, 'chunked')).toBe(413);
        // At the bound the body is read and verified: refused as unsigned, not as too large.
        expect(await postBytes(url, mebibyte, 'declared')).toBe(400);
        expect(await postBytes(url, mebibyte, 'chunked')).toBe(400);
        expect(events).toStrictEqual([]);

        // And it still takes a signed callback afterwards.
        const body = encodeJson(success('Airtime delivered', airtimeData('TXAFTER413')));
        const timestamp = Math.floor(Date.now() / 1000);
        const signed = signCallback({ secrets: [secret], id: 'cb_after_413', timestamp, body });
        const taken = await fetch(url, {
          method: 'POST',
          headers: { ...signed, 'Content-Type': 'application/json' },
          body,
        });
        expect(taken.status).toBe(200);
        expect(events).toMatchObject([{ kind: 'completed', transaction: { reference: 'TXAFTER413' } }]);
      } finally {
        receiver.closeAllConnections();
        await new Promise<void>((resolve) => {
          receiver.close(() => {
            resolve();
          });
        });
      }
    },
  );
});

/**
 * POSTs `size` bytes of JSON-ish filler, with a Content-Length or chunked, and resolves with the status
 * answered. A receiver may answer and close before the whole body is sent; a write error after the
 * answer is expected then and ignored, one before it fails the request.
 */
function postBytes(url: string, size: number, framing: 'declared' | 'chunked'): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'Content-Type': 'application/json',
          ...(framing === 'declared' ? { 'Content-Length': String(size) } : {}),
        },
      },
      (response) => {
        response.resume();
        resolve(response.statusCode ?? 0);
      },
    );
    request.on('error', reject);
    request.setTimeout(20_000, () => request.destroy(new Error(`no answer within 20 s to ${size} bytes`)));
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let sent = 0;
    const write = (): void => {
      while (sent < size) {
        const piece = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += piece.length;
        if (!request.write(piece)) {
          request.once('drain', write);
          return;
        }
      }
      request.end();
    };
    write();
  });
}
