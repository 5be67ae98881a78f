// The shape of one API function's handler: given the authenticated account and the validated input, it
// returns an envelope and HTTP status (or a stored reply to replay). Failures are thrown as ApiFailure.

import type { Envelope } from '@topup/envelope';
import type { Account, Ledger } from '@topup/ledger';
import type { Provider } from '@topup/worker';
import type { Context } from 'koa';
import type { ApiState } from '../api-state.js';
import type { Config } from '../config.js';
import type { EncodedReply } from '../reply.js';

export interface ApiDependencies {
  readonly ledger: Ledger;
  readonly provider: Provider;
  readonly config: Config;
}

export interface HandlerInput<I> {
  readonly ctx: Context & { state: ApiState };
  readonly account: Account;
  readonly input: I;
  readonly deps: ApiDependencies;
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
