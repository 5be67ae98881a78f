// What a process says at start about the providers it drives: in live mode, which provider carries each
// network, so an operator sees at once that a network is unserved (its requests answer 5000).

import type { ProviderRoutes } from '@topup/providers';
import type { Config } from './config.js';
import type { Logger } from 'pino';

/**
 * One line for the start-up log: the simulator for every network, or each network with its provider.
 *
 * @example
 * servedNetworksLine({ mode: 'sandbox' }, { served: new Map() });
 * // 'sandbox mode: the simulator plays every network'
 */
export function servedNetworksLine(
  config: Pick<Config, 'mode'>,
  routes: Pick<ProviderRoutes, 'served'>,
): string {
  if (config.mode === 'sandbox') return 'sandbox mode: the simulator plays every network';
  const served = [...routes.served].map(([network, provider]) => `${network} by ${provider}`);
  return `live mode: ${served.join(', ')}; requests on any other network answer 5000`;
}

/**
 * Writes the served-networks line to the core's log at info level, with the mode and the map as fields.
 *
 * @example
 * const core = await openCore(config);
 * logServedNetworks(core);
 */
export function logServedNetworks(core: {
  readonly config: Pick<Config, 'mode'>;
  readonly logger: Logger;
  readonly providers: Pick<ProviderRoutes, 'served'>;
}): void {
  core.logger.info(
    { mode: core.config.mode, served: Object.fromEntries(core.providers.served) },
    servedNetworksLine(core.config, core.providers),
  );
}
