// What the console's routes need from the service: the store and ledger, the configuration, the sign-in
// failure limiter and the rate limiter the API's tokens use, and a clock (tests move it to expire sessions).

import type { Ledger, Store } from '@topup/ledger';
import type { SessionLifetimes } from '@topup/operators';
import type { Config } from '@topup/service';
import type { ApiDependencies } from '../functions/api-function.js';
import type { AuthenticationFailureLimiter } from '../rate-limit/authentication-failure-limiter.js';
import type { RateLimiter } from '../rate-limit/rate-limiter.js';

export interface ConsoleDependencies {
  readonly config: Config;
  readonly store: Store;
  readonly ledger: Ledger;
  readonly api: ApiDependencies;
  readonly authenticationFailures: AuthenticationFailureLimiter;
  /** The API's token buckets, which the console's calls draw from per session and per address. */
  readonly rateLimiter: RateLimiter;
  readonly now: () => Date;
}

export function lifetimesOf(config: Config): SessionLifetimes {
  return { idleMs: config.console.sessionIdleMs, absoluteMs: config.console.sessionMaxMs };
}

/** Where a one-time sign-in link token is used: the console's link page, the token in the fragment. */
export function signInUrl(config: Config, token: string): string {
  // In the fragment, the token never reaches a server log or a Referer header.
  return `${config.console.baseUrl}/console/link#token=${token}`;
}
