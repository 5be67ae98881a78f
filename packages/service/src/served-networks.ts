// What a process says at start about the providers it drives: in live mode, which provider carries each
// network, so an operator sees at once that a network is unserved (its requests answer 5000).

import type { ProviderRoutes } from '@topup/providers';
import type { Config } from './config.js';

/** One line for the start-up log: the simulator for every network, or each network with its provider. */
export function servedNetworksLine(
  config: Pick<Config, 'mode'>,
  routes: Pick<ProviderRoutes, 'served'>,
): string {
  if (config.mode === 'sandbox') return 'sandbox mode: the simulator plays every network';
  const served = [...routes.served].map(([network, provider]) => `${network} by ${provider}`);
  return `live mode: ${served.join(', ')}; requests on any other network answer 5000`;
}
