// The token lookup inside the authentication-failure limit. A failed authentication (no token, a
// malformed or unknown or revoked one) counts against the client (rate-limit/failure-count-key); once the
// client is locked, its failed authentications are answered 5000 with HTTP 429 and `Retry-After` instead
// of 4000. A valid token is never refused: a locked client still has its valid tokens served, so one
// guesser behind a shared address (a NAT, or a load balancer without TRUST_PROXY) cannot lock out the
// callers beside it.
//
// What it costs, and what a locked guesser can cost: a token this process recently found valid skips the
// counter; one it recently found invalid is refused without a lookup; any other token takes a failure
// slot before its lookup (given back if valid), so simultaneous guesses cannot outrun the count. A locked
// client's other tokens must still be looked up, to serve the valid ones, so they are looked up one at a
// time per client: a locked guesser holds at most one database query at a time per server process, however
// fast it sends, and its repeated tokens cost none.

import { alternateHttpStatus } from '@topup/envelope';
import type { AuthenticatedToken, Ledger } from '@topup/ledger';
import { ApiFailure } from '../api-failure.js';
import type { AuthenticationFailureLimiter } from '../rate-limit/authentication-failure-limiter.js';
import { failureCountKey } from '../rate-limit/failure-count-key.js';
import { oneAtATimePerKey } from '../rate-limit/one-at-a-time.js';
import { createTokenVerdicts } from '../rate-limit/token-verdicts.js';
import type { TokenKey, TokenVerdicts } from '../rate-limit/token-verdicts.js';

export interface AuthenticationGuard {
  /** The session of a valid token; throws 4000 when it is not valid, or 5000/429 when the client is locked. */
  /** `charge` wraps each lookup in the store, to count it against the request's store deadline. */
  authenticate(token: string, address: string, charge?: StoreCharge): Promise<AuthenticatedToken>;
  /** Counts a request that carried no usable token as a failure, and throws 4000 (5000/429 when locked). */
  refuse(problem: string, address: string): Promise<never>;
}

const notValid = 'the API token is not valid';

function invalidToken(problem: string): ApiFailure {
  return new ApiFailure('4000', [problem], { headers: { 'WWW-Authenticate': 'Bearer' } });
}

function locked(retryAfterSeconds: number): ApiFailure {
  return new ApiFailure(
    '5000',
    ['too many failed authentications from this address; retry after the Retry-After delay'],
    {
      httpStatus: alternateHttpStatus.rateLimited,
      headers: { 'Retry-After': String(retryAfterSeconds) },
    },
  );
}

/** Runs one store call of a request, charged to its store deadline. */
export type StoreCharge = <T>(call: () => Promise<T>) => Promise<T>;

const uncharged: StoreCharge = (call) => call();

export function createAuthenticationGuard(
  ledger: Pick<Ledger, 'authenticate'>,
  limiter: AuthenticationFailureLimiter,
  verdicts: TokenVerdicts = createTokenVerdicts(),
): AuthenticationGuard {
  const lockedLookups = oneAtATimePerKey();

  /** Counts one failure (if the client has a slot left) and throws the answer to it. */
  async function failed(key: string, problem: string): Promise<never> {
    const slot = await limiter.reserve(key);
    throw slot.allowed ? invalidToken(problem) : locked(slot.retryAfterSeconds);
  }

  /** The answer to a lookup made without a failure slot: the session, or a failure counted now. */
  async function answered(
    tokenKey: TokenKey,
    key: string,
    session: AuthenticatedToken | undefined,
  ): Promise<AuthenticatedToken> {
    verdicts.set(tokenKey, session === undefined ? 'invalid' : 'valid');
    return session ?? failed(key, notValid);
  }

  return {
    async authenticate(token, address, charge = uncharged) {
      const lookUp = () => charge(() => ledger.authenticate(token));
      const key = failureCountKey(address);
      const tokenKey = verdicts.keyOf(token);
      const verdict = verdicts.get(tokenKey);
      if (verdict === 'invalid') return failed(key, notValid);
      if (verdict === 'valid') return answered(tokenKey, key, await lookUp());
      const slot = await limiter.reserve(key);
      if (!slot.allowed) {
        return answered(tokenKey, key, await lockedLookups(key, lookUp));
      }
      const session = await lookUp().catch(async (error: unknown) => {
        // The store failed, not the caller, and its error is the one to answer with.
        await limiter.release(key).catch(() => undefined);
        throw error;
      });
      verdicts.set(tokenKey, session === undefined ? 'invalid' : 'valid');
      // The slot stays taken for an invalid token: it was the failure.
      if (session === undefined) throw invalidToken(notValid);
      await limiter.release(key);
      return session;
    },
    refuse: (problem, address) => failed(failureCountKey(address), problem),
  };
}
