// The context the console's operator calls and the CLI's commands run operator functions in: the
// service's store and ledger, who acts, and the configuration's rules (the funding threshold, the callback
// URL policy and limits, where sign-in links point), so both apply the same ones.

import type { Ledger, Store } from '@topup/ledger';
import type { OperatorActor, OperatorContext } from '@topup/operators';
import { callbackUrlPolicyOf } from '@topup/service';
import type { Config } from '@topup/service';
import { checkCallbackUrl } from '@topup/worker';
import { signInUrl } from './console/console-context.js';

export function operatorContextOf(
  config: Config,
  ledger: Ledger,
  store: Store,
  actor: OperatorActor,
  now: () => Date = () => new Date(),
): OperatorContext {
  const policy = callbackUrlPolicyOf(config);
  return {
    ledger,
    store,
    actor,
    fundingApprovalThresholdMinor: BigInt(config.console.fundingApprovalThreshold) * 100n,
    signInUrl: (token) => signInUrl(config, token),
    callbacks: {
      urlProblem: async (url) => {
        const check = await checkCallbackUrl(url, policy);
        return check.ok ? undefined : check.problem;
      },
      maxEndpoints: config.callbackMaxEndpoints,
      secretGraceSeconds: config.callbackSecretGraceSeconds,
    },
    now,
  };
}
