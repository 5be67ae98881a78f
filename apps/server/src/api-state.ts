// What the pipeline learns about a request as it passes each middleware, in order. The fields a stage
// establishes are optional here and required in the state type of the stages after it (`CallerState`,
// `FunctionState`), so later stages read them without re-checking what an earlier stage guaranteed.

import type { ResponseNegotiation } from '@topup/envelope';
import type { Account, TokenMode } from '@topup/ledger';
import type { ApiFunctionName } from '@topup/validation';
import type { Logger } from 'pino';
import type { StoreBudget } from './store-deadline.js';

export interface ApiState {
  requestId: string;
  log: Logger;
  /** The answer's format and `Content-Type`, negotiated from `Accept` before anything can fail. */
  negotiated: ResponseNegotiation;
  /** The request's store time (store-deadline.ts), given before any API stage touches the store. */
  storeBudget: StoreBudget;
  functionName?: ApiFunctionName;
  account?: Account;
  tokenId?: string;
  tokenMode?: TokenMode;
  /** The `Idempotency-Key` header, checked; undefined when absent. */
  idempotencyKey?: string;
  /** The decoded body, before validation. */
  body?: Record<string, unknown>;
  /** The validated, normalised request. */
  input?: unknown;
  /** The status code answered, for logs and metrics. */
  code?: string;
  /** An operational route (/healthz, /metrics …): logged at debug level and not counted as an API request. */
  operational?: boolean;
  /** The path as the request's log line shows it, when it holds a secret (a provider webhook's token). */
  loggedPath?: string;
}

/** Set by the function lookup: every later stage serves a known function. */
export interface FunctionState {
  functionName: ApiFunctionName;
}

/** Set by the authentication: every later stage has the caller. */
export interface CallerState {
  account: Account;
  tokenId: string;
  tokenMode: TokenMode;
}
