// The live providers this build has, by the id PROVIDERS names them with. Each is made once per process
// from the configuration and the store; the money networks and carriers it serves are PROVIDERS' choice.

import type { Store } from '@topup/ledger';
import type { Provider } from '@topup/providers';
import type { Logger } from 'pino';
import type { Config } from './config.js';

/** What a live provider is made from. */
export interface LiveProviderContext {
  readonly config: Config;
  readonly store: Store;
  readonly logger: Logger;
}

export type LiveProviderFactory = (context: LiveProviderContext) => Provider;

/**
 * None yet: the M-Pesa (Daraja) and Africa's Talking adapters register here when they land, and until then
 * live mode refuses to start, naming the providers it lacks.
 */
export const liveProviders: ReadonlyMap<string, LiveProviderFactory> = new Map();
