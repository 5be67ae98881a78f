// Where this deployment lets callbacks go: the callback URL policy of the configuration, applied by the API
// and the CLI when an endpoint is registered and by the worker at each delivery. Loopback counts as
// reachable only while the API listens on loopback alone, since then only people on this machine can
// register endpoints; anything else private needs CALLBACK_ALLOW_PRIVATE_NETWORKS=true.

import { isIPv4 } from 'node:net';
import type { CallbackUrlPolicy } from '@topup/worker';
import type { Config } from './config.js';

/** Whether `host` (the HOST the API listens on) is reachable from this machine only. */
export function listensOnLoopbackAlone(host: string): boolean {
  const bare = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || (isIPv4(bare) && bare.startsWith('127.'));
}

/** The policy of a process that serves the API (the server, `pnpm start`, the CLI beside them). */
export function callbackUrlPolicyOf(config: Config): CallbackUrlPolicy {
  return {
    mode: config.mode,
    allowPrivateNetworks: config.callbackAllowPrivateNetworks,
    allowLoopback: listensOnLoopbackAlone(config.host),
  };
}
