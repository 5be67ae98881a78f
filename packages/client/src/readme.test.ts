// The README's examples are files under examples/: this test checks that each block the README marks
// is exactly that file, then runs the files, so the text a reader copies is code that compiles and works.

import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { encodeJson, success } from '@topup/envelope';
import { openStore } from '@topup/ledger';
import { generateSecret, signCallback } from '@topup/signing';
import { startTestService } from '@topup/server/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { callbackReceiver } from '../examples/callback-receiver.js';
import { expressCallbackApp } from '../examples/express-receiver.js';
import { koaCallbackApp } from '../examples/koa-receiver.js';
import type { CallbackEvent } from './parse-callback.js';
import { airtimeData } from './testing/sample-data.js';

const packageRoot = new URL('../', import.meta.url);
const marker = /<!-- example: (\S+) -->\s*```ts\n([\s\S]*?)```/g;

async function readmeExamples(): Promise<Map<string, string>> {
  const readme = await readFile(new URL('README.md', packageRoot), 'utf8');
  return new Map([...readme.matchAll(marker)].map((match) => [match[1] ?? '', match[2] ?? '']));
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
      'examples/express-receiver.ts',
      'examples/koa-receiver.ts',
      'examples/quick-start.ts',
    ]);
    for (const [path, shown] of examples) {
      expect(shown, `the README block of ${path}`).toBe(await readFile(new URL(path, packageRoot), 'utf8'));
    }
  });

  it('runs the quick start against the real service', { timeout: 60_000 }, async () => {
    const store = await openStore({ dataDir: 'memory://' });
    const service = await startTestService(store, { worker: true });
    try {
      const { token } = await service.createCaller({ float: 250_050n });
      vi.stubEnv('TOPUP_URL', service.url);
      vi.stubEnv('TOPUP_TOKEN', token);
      const printed: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
        printed.push(String(line));
      });
      await import('../examples/quick-start.js');
      expect(printed).toHaveLength(3);
      expect(printed.slice(0, 2)).toStrictEqual(['Agent Float: KES 2500.50', 'Airtime: KES 0.00']);
      expect(printed[2]).toMatch(/^Airtime purchase requested: TX\w+ \(request req_\w+\)$/);
    } finally {
      await service.stop();
      await store.close();
    }
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
        expect(events.map((event) => [event.kind, event.id, event.transaction.reference])).toStrictEqual([
          ['completed', 'cb_readme', 'TXREADME01'],
        ]);

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
});
