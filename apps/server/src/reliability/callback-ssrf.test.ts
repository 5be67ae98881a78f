// The callback SSRF guard at the delivery level: a worker refuses to send a callback to plain http in live
// mode, and in every mode to loopback (127.0.0.1, [::1]), private (10.x) and link-local (169.254.169.254)
// addresses, and to a host name that resolves to a private address when the callback is sent, even if it
// resolved to a public one when the endpoint was registered. Nothing connects; each refusal is a recorded
// attempt that tells the caller nothing about the address, while the operator's log says why. The same
// deliveries reach the listeners once private networks are allowed, so the refusals are the guard's.
// Every socket the test process opens is watched: one aimed anywhere but loopback is recorded and destroyed
// before it connects, so even a broken guard sends no traffic off this machine.

import { Socket, createServer } from 'node:net';
import type { AddressInfo, Server } from 'node:net';
import { createLedger } from '@topup/ledger';
import type { DeliveryRecord, Ledger, Store } from '@topup/ledger';
import { parseSendAgentFloat } from '@topup/validation';
import { createSandboxSimulator, routeEveryNetworkTo } from '@topup/providers';
import { checkCallbackUrl, startWorker } from '@topup/worker';
import type { ResolvedAddress, WorkerSettings } from '@topup/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../testing/eventually.js';
import { captureLogs } from '../testing/log-capture.js';
import { openTestStores } from '../testing/test-stores.js';

interface CountingListener {
  readonly server: Server;
  readonly port: number;
  connections: number;
}

async function countingListener(host: string): Promise<CountingListener> {
  const listener = { connections: 0 };
  const server = createServer((socket) => {
    listener.connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return Object.assign(listener, { server, port: (server.address() as AddressInfo).port });
}

const loopbackHosts = new Set(['127.0.0.1', '::1', 'localhost']);

/** The host a `Socket#connect` call aims at, whichever of its call shapes was used. */
function connectTarget(args: readonly unknown[]): string {
  const [first, second] = args;
  // net.createConnection hands over its already normalised arguments as an array.
  const options: unknown = Array.isArray(first) ? first[0] : first;
  if (typeof options === 'number' || typeof options === 'string') {
    return typeof second === 'string' ? second : 'localhost';
  }
  if (typeof options === 'object' && options !== null) {
    const { host, path } = options as { host?: unknown; path?: unknown };
    if (typeof path === 'string') return 'localhost';
    return typeof host === 'string' ? host : 'localhost';
  }
  return 'localhost';
}

/**
 * Watches every socket connect of this process: loopback targets (and `passThrough` host names that the
 * test's resolver maps to loopback) connect as usual; any other is recorded and destroyed before it
 * reaches the network.
 */
function blockOffMachineConnects(passThrough: ReadonlySet<string>) {
  const attempted: string[] = [];
  // Kept unbound on purpose: the wrapper below calls it with the socket being connected as `this`.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = Socket.prototype.connect as (this: Socket, ...connectArgs: unknown[]) => Socket;
  const spy = vi.spyOn(Socket.prototype, 'connect').mockImplementation(function (
    this: Socket,
    ...args: unknown[]
  ): Socket {
    const host = connectTarget(args);
    if (loopbackHosts.has(host) || passThrough.has(host)) {
      return original.apply(this, args);
    }
    attempted.push(host);
    // Failed a turn later, as a real connect fails, once the caller listens for the socket's errors.
    setImmediate(() =>
      this.destroy(new Error(`the test refuses to connect to ${host}: only loopback is allowed`)),
    );
    return this;
  });
  return {
    attempted,
    restore: () => {
      spy.mockRestore();
    },
  };
}

/** A resolver whose answers the test changes between registration and delivery. */
function switchableResolver(answers: Map<string, readonly ResolvedAddress[]>) {
  return (hostname: string) => Promise.resolve(answers.get(hostname) ?? []);
}

async function completedFloat(ledger: Ledger, accountId: string): Promise<string> {
  const parsed = parseSendAgentFloat({
    mobile: '254712345678',
    amount: '100',
    agent_number: '1',
    store_number: '2',
  });
  if (!parsed.ok) throw new Error(`Expected a valid float request, received ${parsed.errors.join(', ')}`);
  const outcome = await ledger.requestAgentFloat({ accountId, request: parsed.value });
  if (outcome.kind !== 'created') throw new Error(`Expected a created transaction, received ${outcome.kind}`);
  await ledger.complete(outcome.transaction.reference, { providerCode: 'SSRF1' });
  return outcome.transaction.reference;
}

const settings = (mode: 'live' | 'sandbox'): WorkerSettings => ({
  mode,
  transactionTimeoutSeconds: 600,
  retryScheduleSeconds: [0, 0.2, 0.2, 0.2, 0.2, 0.2],
  slowDownFloorSeconds: 0.2,
  providerTimeoutMs: 1_000,
  pollIntervalMs: 100,
  deliveryTimeoutMs: 1_000,
});

describe.each(openTestStores())('the callback SSRF guard when delivering, on $name', (stores) => {
  let store: Store;
  let ledger: Ledger;
  let loopback4: CountingListener;
  let loopback6: CountingListener;

  beforeAll(async () => {
    store = await stores.open();
    ledger = createLedger(store);
    loopback4 = await countingListener('127.0.0.1');
    loopback6 = await countingListener('::1');
  });

  afterAll(async () => {
    loopback4.server.close();
    loopback6.server.close();
    await ledger.close();
    await stores.close(store);
  });

  it('refuses http, loopback, private, link-local and rebound hosts in live mode, connecting to none', async () => {
    const answers = new Map<string, readonly ResolvedAddress[]>([
      ['public.callbacks.test', [{ address: '93.184.216.34', family: 4 }]],
      ['rebound.callbacks.test', [{ address: '93.184.216.34', family: 4 }]],
      ['private.callbacks.test', [{ address: '93.184.216.34', family: 4 }]],
    ]);
    const resolve = switchableResolver(answers);
    const rebound = `https://rebound.callbacks.test:${loopback4.port}/hook`;
    const privateRebound = 'https://private.callbacks.test/hook';
    // Registration saw a public address, so a registration-time check alone would have let them through.
    for (const url of [rebound, privateRebound]) {
      expect(
        await checkCallbackUrl(url, {
          mode: 'live',
          allowPrivateNetworks: false,
          allowLoopback: false,
          resolve,
        }),
      ).toMatchObject({ ok: true });
    }
    answers.set('rebound.callbacks.test', [{ address: '127.0.0.1', family: 4 }]);
    answers.set('private.callbacks.test', [{ address: '10.0.0.7', family: 4 }]);

    const refusals: Record<string, RegExp> = {
      'http://public.callbacks.test/hook': /https URL in live mode/,
      [`https://127.0.0.1:${loopback4.port}/hook`]: /127\.0\.0\.1 \(loopback/,
      'https://10.0.0.7/hook': /10\.0\.0\.7 \(private/,
      'https://169.254.169.254/latest/meta-data/': /169\.254\.169\.254 \(link-local/,
      [`https://[::1]:${loopback6.port}/hook`]: /::1 \(loopback/,
      [rebound]: /rebound\.callbacks\.test, which resolves to 127\.0\.0\.1 \(loopback/,
      [privateRebound]: /private\.callbacks\.test, which resolves to 10\.0\.0\.7 \(private/,
    };
    // The rebound host now resolves to loopback, so its connections may reach the counting listener.
    const sockets = blockOffMachineConnects(new Set(['rebound.callbacks.test']));
    const logs = captureLogs('warn');
    try {
      const account = await ledger.createAccount({ name: 'Guarded Ltd' });
      await ledger.fund(account.id, 'float', 1_000_000n);
      for (const url of Object.keys(refusals)) {
        await ledger.addCallbackEndpoint(account.id, { url, format: 'json', description: url });
      }
      const worker = startWorker({
        store,
        ledger,
        providers: routeEveryNetworkTo(createSandboxSimulator(store, { delayMs: 0 })),
        logger: logs.logger,
        settings: settings('live'),
        resolve,
      });
      let deliveries: DeliveryRecord[];
      const endpointUrls = new Map(
        (await ledger.listCallbackEndpoints(account.id)).map((endpoint) => [endpoint.id, endpoint.url]),
      );
      try {
        const reference = await completedFloat(ledger, account.id);
        deliveries = await eventually(
          'two refused attempts of every delivery',
          async () => {
            const found = await ledger.listDeliveries(account.id, { reference });
            return found.length === endpointUrls.size &&
              found.every((delivery) => delivery.attempts.length >= 2)
              ? found
              : undefined;
          },
          15_000,
        );
      } finally {
        await worker.stop();
      }
      const refusedInLog = logs.records().filter((line) => line.msg === 'callback URL refused at delivery');
      for (const delivery of deliveries) {
        const url = endpointUrls.get(delivery.endpointId) ?? '';
        for (const attempt of delivery.attempts) {
          expect(attempt.httpStatus, url).toBeUndefined();
          expect(attempt.error, url).toBe('callback URL refused by the callback URL policy');
        }
        const reasons = refusedInLog.filter((line) => line.endpointId === delivery.endpointId);
        expect(reasons.length, url).toBeGreaterThanOrEqual(2);
        for (const line of reasons) expect(line.problem, url).toMatch(refusals[url] ?? /no such endpoint/);
      }
      expect({ ipv4: loopback4.connections, ipv6: loopback6.connections }).toEqual({ ipv4: 0, ipv6: 0 });
      // Not even an attempt: no socket was aimed at the private or link-local hosts.
      expect(sockets.attempted).toEqual([]);

      // The control: with private addresses allowed, the same pending deliveries do reach both listeners,
      // and the worker does try the private hosts (stopped by the watch), so the watch would have seen it.
      const permissive = startWorker({
        store,
        ledger,
        providers: routeEveryNetworkTo(createSandboxSimulator(store, { delayMs: 0 })),
        logger: pino({ level: 'silent' }),
        settings: { ...settings('live'), allowPrivateCallbackNetworks: true },
        resolve,
      });
      try {
        await eventually(
          'connections to both loopback listeners and attempts at the private hosts',
          () =>
            loopback4.connections >= 2 &&
            loopback6.connections >= 1 &&
            sockets.attempted.includes('private.callbacks.test') &&
            sockets.attempted.includes('10.0.0.7')
              ? true
              : undefined,
          15_000,
        );
      } finally {
        await permissive.stop();
      }
    } finally {
      sockets.restore();
    }
  }, 60_000);

  it('refuses loopback, private and link-local receivers in the sandbox too, unless the operator allows them', async () => {
    const sockets = blockOffMachineConnects(new Set());
    try {
      const account = await ledger.createAccount({ name: 'Sandboxed Ltd' });
      await ledger.fund(account.id, 'float', 1_000_000n);
      const urls = [
        `http://127.0.0.1:${loopback4.port}/hook`,
        `http://[::1]:${loopback6.port}/hook`,
        'http://10.0.0.7/hook',
        'http://169.254.169.254/latest/meta-data/',
      ];
      for (const url of urls) await ledger.addCallbackEndpoint(account.id, { url, format: 'json' });
      const before = { ipv4: loopback4.connections, ipv6: loopback6.connections };
      const worker = startWorker({
        store,
        ledger,
        providers: routeEveryNetworkTo(createSandboxSimulator(store, { delayMs: 0 })),
        logger: pino({ level: 'silent' }),
        settings: settings('sandbox'),
      });
      try {
        const reference = await completedFloat(ledger, account.id);
        const deliveries = await eventually(
          'a refused attempt of every delivery',
          async () => {
            const found = await ledger.listDeliveries(account.id, { reference });
            return found.length === urls.length && found.every((delivery) => delivery.attempts.length >= 1)
              ? found
              : undefined;
          },
          15_000,
        );
        for (const delivery of deliveries) {
          expect(delivery.attempts[0]?.error).toMatch(/^callback URL refused/);
        }
      } finally {
        await worker.stop();
      }
      expect({ ipv4: loopback4.connections, ipv6: loopback6.connections }).toEqual(before);
      expect(sockets.attempted).toEqual([]);

      // Loopback alone, as `pnpm start` allows it while its API listens on loopback: only the loopback
      // receivers are reached; private and link-local stay refused.
      const local = startWorker({
        store,
        ledger,
        providers: routeEveryNetworkTo(createSandboxSimulator(store, { delayMs: 0 })),
        logger: pino({ level: 'silent' }),
        settings: { ...settings('sandbox'), allowLoopbackCallbacks: true },
      });
      try {
        await eventually(
          'connections to both loopback listeners',
          () =>
            loopback4.connections > before.ipv4 && loopback6.connections > before.ipv6 ? true : undefined,
          15_000,
        );
      } finally {
        await local.stop();
      }
      expect(sockets.attempted).toEqual([]);
    } finally {
      sockets.restore();
    }
  }, 60_000);
});
