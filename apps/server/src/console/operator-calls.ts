// `POST /console/api/operator/<function>`: the operator functions of @topup/operators for an operator
// session, acting as the signed-in user. Callers are refused here; the rules themselves (support reads
// only, approvals, re-authentication, audit) are the catalog's own, shared with the CLI.

import { callOperatorFunction } from '@topup/operators';
import type { Middleware } from 'koa';
import { operatorContextOf } from '../operator-context.js';
import { ConsoleFailure } from './console-failure.js';
import type { ConsoleDependencies } from './console-context.js';
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
    const actor = {
      kind: 'console',
      name: session.email,
      role: session.role,
      since: session.userSince,
    } as const;
    const data = await callOperatorFunction(
      operatorContextOf(deps.config, deps.ledger, deps.store, actor, deps.now),
      name,
      await jsonBody(ctx),
      { reauthenticated: session.reauthenticatedUntil !== undefined },
    );
    ctx.body = { data };
  };
}
