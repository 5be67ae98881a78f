// The shape of one API function's handler: given the authenticated account and the validated input, it
// returns an envelope and HTTP status (or a stored reply to replay). Failures are thrown as ApiFailure.

import type { Envelope } from '@topup/envelope';
import type { Account, Ledger } from '@topup/ledger';
import type { ProviderRoutes } from '@topup/providers';
import type { Context } from 'koa';
import type { ApiState } from '../api-state.js';
import type { Config } from '@topup/service';
import type { EncodedReply } from '../reply.js';

export interface ApiDependencies {
  /** For a handler, the ledger with every call charged to the request's store budget. */
  readonly ledger: Ledger;
  /** For a handler, the providers, with store-backed submissions charged to the request's store budget. */
  readonly providers: Pick<ProviderRoutes, 'forNetwork'>;
  readonly config: Config;
}

export interface HandlerInput<I> {
  readonly ctx: Context & { state: ApiState };
  readonly account: Account;
  readonly input: I;
  readonly deps: ApiDependencies;
  /** The same dependencies on a fresh store budget as large as the request's: for each look of a long wait. */
  readonly renewedDeps: () => ApiDependencies;
}

export type HandlerResult =
  | { readonly kind: 'envelope'; readonly envelope: Envelope; readonly httpStatus: number }
  | {
      readonly kind: 'encoded';
      readonly reply: EncodedReply;
      readonly headers: Readonly<Record<string, string>>;
    };

export type ApiHandler<I> = (input: HandlerInput<I>) => Promise<HandlerResult>;

export function ok(envelope: Envelope): HandlerResult {
  return { kind: 'envelope', envelope, httpStatus: 200 };
}
