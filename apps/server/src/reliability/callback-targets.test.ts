// The callback URL policy as a caller meets it on `pnpm start` (sandbox, the API on loopback alone): link-
// local, cloud-metadata and private URLs are refused with 3000 'url is invalid' in JSON and XML; a loopback
// receiver is allowed, but what it answers never reaches the caller, so a callback cannot read an internal
// service's answers, or tell a closed port from one that never answers. Through the HTTP API with the
// worker in the process, on each store. No socket leaves loopback: the refused addresses are never dialled.

import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../testing/eventually.js';
import { freePort } from '../testing/free-port.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';
import { envelopeOf, xmlBody } from '../testing/wire.js';

const internalAnswer = 'db_password=hunter2; internal admin console';

interface DeliveryView {
  endpoint_id: string;
  last_error: string;
  attempts: { http_status: string; response_excerpt: string; error: string }[];
}

async function listening(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
}

describe.each(openTestStores())('callback targets on a loopback sandbox, on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let internal: Server;
  let silent: Server;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store, {
      worker: true,
      env: { CALLBACK_RETRY_SCHEDULE: '0,120' },
      workerSettings: { deliveryTimeoutMs: 500 },
    });
    // An internal service with something to hide, and one that accepts connections and never answers.
    internal = createServer((_request, response) => response.end(internalAnswer));
    silent = createServer(() => undefined);
  });

  afterAll(async () => {
    await service.stop();
    internal.close();
    silent.closeAllConnections();
    silent.close();
    await stores.close(store);
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://[fe80::1]/hook',
    'http://10.0.0.5/hook',
    'http://172.16.0.1/hook',
    'http://192.168.1.10/hook',
    'http://100.64.0.1/hook',
    'http://[fd12:3456::1]/hook',
    'http://[::ffff:169.254.169.254]/',
  ])('refuses %s with 3000 in JSON and XML', async (url) => {
    const { token } = await service.createCaller();
    const json = await service.call('add_callback_endpoint', { token, json: { url } });
    expect(json.status).toBe(422);
    expect(await envelopeOf(json)).toMatchObject({
      status: { code: '3000' },
      data: { errors: ["'url is invalid'"] },
    });
    const xml = await service.call('add_callback_endpoint', {
      token,
      body: xmlBody({ url: url.replaceAll('&', '&amp;') }),
      headers: { 'Content-Type': 'text/xml', Accept: 'text/xml' },
    });
    expect(xml.status).toBe(422);
    expect(await envelopeOf(xml)).toMatchObject({
      status: { code: '3000' },
      data: { errors: ["'url is invalid'"] },
    });
  });

  it('delivers to loopback receivers but shows the caller neither their answers nor how they failed', async () => {
    const { token } = await service.createCaller();
    const closedPort = await freePort();
    const targets = {
      internal: `${await listening(internal)}/admin`,
      closed: `http://127.0.0.1:${String(closedPort)}/hook`,
      silent: `${await listening(silent)}/hook`,
    };
    const ids = new Map<string, string>();
    for (const [name, url] of Object.entries(targets)) {
      const added = await envelopeOf(await service.call('add_callback_endpoint', { token, json: { url } }));
      expect(added.status.code).toBe('0000');
      ids.set((added.data.endpoint as { id: string }).id, name);
    }
    // A purchase needs no balance; the payer of a number ending in 0001 declines, which calls back.
    const bought = await envelopeOf(
      await service.call('buy_airtime', {
        token,
        json: {
          mobile: '254733000123',
          amount: '50',
          payment_network: 'MoneyNetB',
          payment_mobile: '254722000001',
        },
      }),
    );
    expect(bought.status.code).toBe('0000');
    const reference = (bought.data.transaction as { reference: string }).reference;

    const deliveries = await eventually('a first attempt at each receiver', async () => {
      const listed = await envelopeOf(
        await service.call('list_callback_deliveries', { token, json: { reference } }),
      );
      const found = listed.data.deliveries as DeliveryView[];
      return found.length === 3 && found.every((delivery) => delivery.attempts.length >= 1)
        ? found
        : undefined;
    });
    const byName = new Map(deliveries.map((delivery) => [ids.get(delivery.endpoint_id), delivery]));
    expect(byName.get('internal')?.attempts[0]).toMatchObject({
      http_status: '200',
      response_excerpt: '',
      error: '',
    });
    for (const name of ['closed', 'silent']) {
      expect(byName.get(name)?.attempts[0], name).toMatchObject({
        http_status: '',
        response_excerpt: '',
        error: 'connection failed',
      });
      expect(byName.get(name)?.last_error, name).toBe('connection failed');
    }
    expect(JSON.stringify(deliveries)).not.toContain('hunter2');
  });
});
