// `POST /console/api/operator/<function>`: the operator functions of @topup/operators for an operator
// session, acting as the signed-in user. Callers are refused here; the rules themselves (support reads
// only, re-authentication, audit) are the functions' own, shared with the CLI.

import { callOperatorFunction } from '@topup/operators';
import type { Middleware } from 'koa';
import { ConsoleFailure } from './console-failure.js';
import { signInUrl, type ConsoleDependencies } from './console-context.js';
import type { SessionState } from './console-state.js';
import { jsonBody } from './json-body.js';

export function operatorCalls(deps: ConsoleDependencies): Middleware<SessionState> {
  return async (ctx) => {
    const { session } = ctx.state;
    if (session.role === 'caller')
      throw new ConsoleFailure(
        403,
        'forbidden',
        'Operator functions are for operators; you are signed in as a caller.',
      );
    const name = (ctx.params as Record<string, string | undefined>)['function'] ?? '';
    const data = await callOperatorFunction(
      {
        ledger: deps.ledger,
        store: deps.store,
        actor: { name: session.email, role: session.role },
        fundingApprovalThresholdMinor: BigInt(deps.config.console.fundingApprovalThreshold) * 100n,
        signInUrl: (token) => signInUrl(deps.config, token),
        now: deps.now,
        onAuditFailure: (error, action) => {
          ctx.state.log.error({ err: error, action }, 'an audit record could not be written');
        },
      },
      name,
      await jsonBody(ctx),
      { reauthenticated: session.reauthenticatedUntil !== undefined },
    );
    ctx.body = { data };
  };
}
