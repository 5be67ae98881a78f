// `POST /console/api/call/<function>`: a caller API function run for a console session, through the same
// validation and handler as `POST /api/<function>`, so a rule is written once. A caller session acts on
// its own account (never one named in the request); an operator names it in `X-Topup-Account`. Money
// operations stay with callers' own systems; support reads only; revealing a secret needs a fresh
// re-authentication; an operator's change is audited.

import { recordAudit } from '@topup/operators';
import { operationCatalog, type ApiFunctionName } from '@topup/validation';
import type { Middleware } from 'koa';
import type { ApiState, CallerState, FunctionState } from '../api-state.js';
import { envelopeErrors } from '../middleware/envelope-errors.js';
import { bodyDecoding } from '../middleware/body-decoding.js';
import { operation } from '../middleware/operation.js';
import { requestValidation } from '../middleware/request-validation.js';
import { storeDeadline } from '../middleware/store-deadline.js';
import { functionNames, parserFor } from '../functions/registry.js';
import { ConsoleFailure } from './console-failure.js';
import type { ConsoleDependencies } from './console-context.js';
import type { SessionState } from './console-state.js';

/** Functions whose answer shows a callback secret. */
const revealsSecret: ReadonlySet<string> = new Set(['add_callback_endpoint', 'rotate_callback_secret']);

type CallState = SessionState & FunctionState & CallerState;

/** Which function, which account, and whether this session may call it there. */
function authorised(deps: ConsoleDependencies): Middleware<SessionState & ApiState> {
  return async (ctx, next) => {
    const name = (ctx.params as Record<string, string | undefined>)['function'] ?? '';
    if (!functionNames.has(name)) throw new ConsoleFailure(404, 'not_found', `No API function ${name}.`);
    const kind = operationCatalog[name as ApiFunctionName].kind;
    if (kind === 'money')
      throw new ConsoleFailure(
        403,
        'forbidden',
        `${name} moves money; call it from your own systems with a token.`,
      );
    const { session } = ctx.state;
    if (kind === 'change' && session.role === 'support')
      throw new ConsoleFailure(403, 'forbidden', `${name} changes something; role support is read-only.`);
    if (revealsSecret.has(name) && session.reauthenticatedUntil === undefined)
      throw new ConsoleFailure(
        403,
        'reauthentication_required',
        `${name} shows a secret; enter your password again.`,
      );
    const accountId = session.role === 'caller' ? session.accountId : ctx.get('x-topup-account');
    if (accountId === undefined || accountId === '')
      throw new ConsoleFailure(400, 'invalid', 'Name the account in the X-Topup-Account header.', [
        'account',
      ]);
    const account = await deps.ledger.getAccount(accountId);
    if (account === undefined) throw new ConsoleFailure(404, 'not_found', `No account ${accountId}.`);
    if (kind === 'change' && account.status !== 'active')
      throw new ConsoleFailure(
        409,
        'conflict',
        `Account ${accountId} is ${account.status}; it cannot be changed.`,
      );
    const state = ctx.state as unknown as CallState;
    state.functionName = name as ApiFunctionName;
    state.account = account;
    state.tokenId = `console:${session.userId}`;
    // The service's own mode: a console session is never a token of the other mode.
    state.tokenMode = deps.config.mode === 'live' ? 'live' : 'test';
    await next();
  };
}

/** An operator's change through a caller function, recorded once the function has answered success. */
function audited(deps: ConsoleDependencies): Middleware<CallState> {
  return async (ctx, next) => {
    await next();
    const { session, functionName, account, code } = ctx.state;
    if (session.role === 'caller' || operationCatalog[functionName].kind !== 'change' || code !== '0000')
      return;
    // The change has committed and its answer (a new secret) must reach the operator: a record that
    // cannot be written is logged, never turned into a failure the operator would retry.
    await recordAudit(
      deps.store,
      { actor: session.email, action: functionName, target: account.id, after: ctx.state.input ?? {} },
      deps.now(),
    ).catch((error: unknown) => {
      ctx.state.log.error({ err: error, action: functionName }, 'an audit record could not be written');
    });
  };
}

/** The stages of an account call, after the session is found: the API's own from validation on. */
export function accountCalls(deps: ConsoleDependencies): Middleware[] {
  return [
    authorised(deps),
    envelopeErrors(),
    storeDeadline(deps.config.storeTimeouts.requestDeadlineMs),
    audited(deps),
    bodyDecoding(deps.config.bodyLimitBytes),
    requestValidation(parserFor(deps.config)),
    operation(deps.api),
  ] as Middleware[];
}
