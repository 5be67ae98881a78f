import { openStore } from '@topup/ledger';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Provider } from './provider.js';
import { routeEveryNetworkTo, routeNetworks, unservedNetwork } from './provider-routes.js';
import { createSandboxSimulator } from './sandbox-simulator.js';

describe('provider routes', () => {
  let store: Store;
  let simulator: Provider;

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    simulator = createSandboxSimulator(store, { delayMs: 0 });
  }, 60_000);
  afterAll(() => store.close());

  const named = (name: string): Provider => ({ ...simulator, name });

  it('sends every network to the one provider in sandbox mode, and names no served list', () => {
    const routes = routeEveryNetworkTo(simulator);
    expect(routes.forNetwork('MoneyNetD')).toBe(simulator);
    expect(routes.named('sandbox')).toBe(simulator);
    expect(routes.named('daraja')).toBeUndefined();
    expect(routes.providers).toEqual([simulator]);
    expect(unservedNetwork(routes, ['MoneyNetA', 'CarrierC'])).toBeUndefined();
  });

  it('sends each network to its own provider in live mode, and no other network anywhere', () => {
    const money = named('mpesa');
    const carrier = named('airtime-hub');
    const routes = routeNetworks(
      new Map([
        ['MoneyNetA', money],
        ['CarrierA', carrier],
        ['CarrierB', carrier],
      ]),
    );
    expect(routes.forNetwork('MoneyNetA')).toBe(money);
    expect(routes.forNetwork('CarrierB')).toBe(carrier);
    expect(routes.forNetwork('MoneyNetB')).toBeUndefined();
    expect(routes.providers).toEqual([money, carrier]);
    expect(routes.named('airtime-hub')).toBe(carrier);
    expect([...routes.served]).toEqual([
      ['MoneyNetA', 'mpesa'],
      ['CarrierA', 'airtime-hub'],
      ['CarrierB', 'airtime-hub'],
    ]);
    expect(unservedNetwork(routes, ['CarrierA', 'MoneyNetC', 'MoneyNetD'])).toBe('MoneyNetC');
  });

  it('refuses two different providers under one name, since webhooks and legs go by it', () => {
    expect(() =>
      routeNetworks(
        new Map([
          ['MoneyNetA', named('mpesa')],
          ['MoneyNetB', named('mpesa')],
        ]),
      ),
    ).toThrow("Expected one provider named 'mpesa', received two different ones.");
  });
});
