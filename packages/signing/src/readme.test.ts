// The README's examples are files under examples/: this test checks that each block the README marks is
// exactly that file, then runs them: the quick start prints what its comments say, and each receiver
// takes a signed callback over loopback (or as a Fetch Request) and refuses a forged one.

import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fetchReceiver, koaReceiver, nodeReceiver } from '../examples/receivers.js';
import type { OnCallback } from '../examples/receivers.js';
import { generateSecret } from './secret.js';
import { signCallback } from './sign.js';

const packageRoot = new URL('../', import.meta.url);
const marker = /<!-- example: (\S+) -->\s*```ts\n([\s\S]*?)```/g;
const processed = '{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}';

async function readmeExamples(): Promise<Map<string, string>> {
  const readme = await readFile(new URL('README.md', packageRoot), 'utf8');
  return new Map([...readme.matchAll(marker)].map((match) => [match[1] ?? '', match[2] ?? '']));
}

afterEach(() => {
  vi.restoreAllMocks();
});

type Post = (headers: Record<string, string>, body: string) => Promise<Response>;

/** Serves `server` on loopback while `use` posts to it, and closes it whatever happens. */
async function overLoopback(server: Server, use: (post: Post) => Promise<void>): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/callbacks`;
  try {
    await use((headers, body) => fetch(url, { method: 'POST', headers, body }));
  } finally {
    server.closeAllConnections();
    await new Promise<void>((resolve) => {
      server.close(() => {
        resolve();
      });
    });
  }
}

/** Runs `use` with a way to post callbacks to one receiver, and stops that receiver afterwards. */
type Serve = (use: (post: Post) => Promise<void>) => Promise<void>;
type StartReceiver = (secrets: readonly string[], onCallback: OnCallback) => Serve;

const receivers: [string, StartReceiver][] = [
  [
    'Koa',
    (secrets, onCallback) => (use) => {
      const handle = koaReceiver(secrets, onCallback).callback();
      const server = createServer((request, response) => {
        void handle(request, response);
      });
      return overLoopback(server, use);
    },
  ],
  ['node:http', (secrets, onCallback) => (use) => overLoopback(nodeReceiver(secrets, onCallback), use)],
  [
    'Fetch',
    (secrets, onCallback) => (use) => {
      const handle = fetchReceiver(secrets, onCallback);
      return use((headers, body) =>
        handle(new Request('http://receiver.test/callbacks', { method: 'POST', headers, body })),
      );
    },
  ],
];

describe('README', () => {
  it('shows each example file exactly as it is', async () => {
    const examples = await readmeExamples();
    expect([...examples.keys()].sort()).toStrictEqual(['examples/quick-start.ts', 'examples/receivers.ts']);
    for (const [path, shown] of examples) {
      expect(shown, `the README block of ${path}`).toBe(await readFile(new URL(path, packageRoot), 'utf8'));
    }
  });

  it('runs the quick start, which prints what its comments say', async () => {
    const printed: unknown[] = [];
    vi.spyOn(console, 'log').mockImplementation((value: unknown) => {
      printed.push(value);
    });
    await import('../examples/quick-start.js');
    expect(printed).toStrictEqual([
      [
        'Signature-Algorithm',
        'Signature-Timestamp',
        'Signature-Hash',
        'webhook-id',
        'webhook-timestamp',
        'webhook-signature',
      ],
      {
        ok: true,
        key: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) as unknown,
        id: 'cb_01JD8Z6Q4M',
        timestamp: expect.any(Number) as unknown,
      },
      false,
    ]);
  });

  it.each(receivers)(
    'runs the %s receiver: a signed callback is taken, a forged one refused',
    async (_name, serve) => {
      const secret = generateSecret();
      const received: string[] = [];
      const onCallback: OnCallback = (rawBody) => {
        received.push(Buffer.from(rawBody).toString('utf8'));
        return Promise.resolve();
      };
      const body = '{"status":{"type":"SUCCESS","code":"0000","message":"Airtime delivered"}}';
      const timestamp = Math.floor(Date.now() / 1000);
      await serve(
        [secret],
        onCallback,
      )(async (post) => {
        const taken = await post(signCallback({ secrets: [secret], id: 'cb_readme', timestamp, body }), body);
        expect(taken.status).toBe(200);
        expect(await taken.text()).toBe(processed);
        expect(received).toStrictEqual([body]);

        const forged = signCallback({ secrets: [generateSecret()], id: 'cb_forged', timestamp, body });
        const refused = await post(forged, body);
        expect(refused.status).toBe(401);
        expect(received).toHaveLength(1);
      });
    },
  );
});
