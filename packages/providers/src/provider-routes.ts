// Which provider carries a transaction: every network token maps to one provider (`PROVIDERS` in live
// mode; the simulator for all of them in sandbox mode). The server submits through the provider of the
// transaction's network, the worker asks that same provider about it, and results pushed or pulled are
// read from each provider in use, so nothing in between needs to know how many providers there are.

import type { TransactionRecord } from '@topup/ledger';
import type { Provider } from './provider.js';

/**
 * The providers in use and the networks each serves.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createSandboxSimulator, routeEveryNetworkTo } from '@topup/providers';
 *
 * const routes = routeEveryNetworkTo(createSandboxSimulator(await openStore({ dataDir: 'memory://' }), { delayMs: 0 }));
 * routes.forNetwork('MoneyNetA')?.name; // 'sandbox'
 * ```
 */
export interface ProviderRoutes {
  /** Every provider in use, each once. */
  readonly providers: readonly Provider[];
  /** The provider that carries transactions on `network`, or undefined when none serves it. */
  forNetwork(network: string): Provider | undefined;
  /** The provider in use named `name` (as in its webhook path and on its legs). */
  named(name: string): Provider | undefined;
  /** Network token to provider name, for every network served; empty when every network is. */
  readonly served: ReadonlyMap<string, string>;
}

/**
 * Sandbox mode's routes: one provider for every network.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createSandboxSimulator, routeEveryNetworkTo } from '@topup/providers';
 *
 * const routes = routeEveryNetworkTo(createSandboxSimulator(await openStore({ dataDir: 'memory://' }), { delayMs: 0 }));
 * routes.forNetwork('CarrierC')?.name; // 'sandbox'
 * ```
 */
export function routeEveryNetworkTo(provider: Provider): ProviderRoutes {
  return {
    providers: [provider],
    forNetwork: () => provider,
    named: (name) => (name === provider.name ? provider : undefined),
    served: new Map(),
  };
}

/**
 * Live mode's routes: each network to its provider, and no provider for any other network.
 *
 * @throws when two different providers share one name, since webhooks and legs name providers by it.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createSandboxSimulator, routeNetworks } from '@topup/providers';
 *
 * const simulator = createSandboxSimulator(await openStore({ dataDir: 'memory://' }), { delayMs: 0 });
 * const routes = routeNetworks(new Map([['MoneyNetA', simulator]]));
 * routes.forNetwork('MoneyNetB'); // undefined: requests on MoneyNetB are refused
 * ```
 */
export function routeNetworks(routes: ReadonlyMap<string, Provider>): ProviderRoutes {
  const byName = new Map<string, Provider>();
  for (const provider of routes.values()) {
    const known = byName.get(provider.name);
    if (known !== undefined && known !== provider) {
      throw new Error(`Expected one provider named '${provider.name}', received two different ones.`);
    }
    byName.set(provider.name, provider);
  }
  const served = new Map([...routes].map(([network, provider]) => [network, provider.name]));
  return {
    providers: [...byName.values()],
    forNetwork: (network) => routes.get(network),
    named: (name) => byName.get(name),
    served,
  };
}

/**
 * The first of `networks` that no provider serves, if any: a request naming it is refused before any money
 * is reserved.
 *
 * @example
 * ```ts
 * import { unservedNetwork, routeNetworks } from '@topup/providers';
 *
 * unservedNetwork(routeNetworks(new Map()), ['CarrierA', 'MoneyNetA']); // 'CarrierA'
 * ```
 */
export function unservedNetwork(
  routes: Pick<ProviderRoutes, 'forNetwork'>,
  networks: readonly string[],
): string | undefined {
  return networks.find((network) => routes.forNetwork(network) === undefined);
}

/**
 * The network whose provider a transaction is submitted to first: a float's own network, and a purchase's
 * payer's money network (which takes the payment; the recipient's carrier delivers after it).
 *
 * @example
 * ```ts
 * import { firstLegNetwork } from '@topup/providers';
 * import type { TransactionRecord } from '@topup/ledger';
 *
 * const submittedTo = (transaction: TransactionRecord) => firstLegNetwork(transaction); // 'MoneyNetA' for a purchase paid on M-Pesa
 * ```
 */
export function firstLegNetwork(transaction: Pick<TransactionRecord, 'network' | 'payment'>): string {
  return transaction.payment?.network ?? transaction.network;
}
