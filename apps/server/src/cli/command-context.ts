// What a CLI command runs with, whether the CLI opened the store itself or the running service runs the
// command for it (control-socket.ts): the store, and the configuration's rules for callbacks, funding and
// sign-in links.

import type { Ledger, Store } from '@topup/ledger';
import { callbackUrlPolicyOf } from '@topup/service';
import type { Config } from '@topup/service';
import { signInUrl } from '../console/console-context.js';
import type { CommandContext, Options } from './commands.js';

export function commandContext(
  config: Config,
  ledger: Ledger,
  store: Store,
  options: Options,
  operator: string,
): CommandContext {
  return {
    ledger,
    store,
    options,
    graceSeconds: config.callbackSecretGraceSeconds,
    maxEndpoints: config.callbackMaxEndpoints,
    callbackUrlPolicy: callbackUrlPolicyOf(config),
    operator,
    fundingApprovalThresholdMinor: BigInt(config.console.fundingApprovalThreshold) * 100n,
    signInUrl: (token) => signInUrl(config, token),
  };
}
