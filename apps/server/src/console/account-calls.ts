// `POST /console/api/call/<function>`: a caller API function run for a console session, through the same
// validation and handler as `POST /api/<function>`, so a rule is written once. A caller session acts on
// its own account (never one named in the request); an operator names it in `X-Topup-Account`. Money
// operations stay with callers' own systems; support reads only; revealing a secret needs a fresh
// re-authentication; every change is audited, a caller's as an operator's, in the change's transaction.

import type { Ledger, Queryable } from '@topup/ledger';
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

/**
 * The API's ledger for one console call, writing the call's audit record (`record`) inside the database
 * transaction of every change it makes, so the change and its record commit together or not at all.
 */
function recordingLedger(ledger: Ledger, record: (tx: Queryable) => Promise<void>): Ledger {
  const alongside = (tx: Queryable) => record(tx);
  return {
    ...ledger,
    addCallbackEndpoint: (account, input, options) =>
      ledger.addCallbackEndpoint(account, input, { ...options, alongside }),
    removeCallbackEndpoint: (account, endpoint) =>
      ledger.removeCallbackEndpoint(account, endpoint, { alongside }),
    rotateCallbackSecret: (account, endpoint, grace) =>
      ledger.rotateCallbackSecret(account, endpoint, grace, { alongside }),
    resendCallbacks: (account, reference, endpoint) =>
      ledger.resendCallbacks(account, reference, endpoint, { alongside }),
    resendFailedCallbacks: (account, options) =>
      ledger.resendFailedCallbacks(account, { ...options, alongside }),
  };
}

/**
 * Runs the function's handler, auditing every change a console user makes through it, an operator's or a
 * caller's: in the change's own transaction, or, for a change the store does not hold (a test callback
 * sent), once it has answered success.
 */
function auditedOperation(deps: ConsoleDependencies): Middleware<CallState> {
  return async (ctx, next) => {
    const { session, functionName, account } = ctx.state;
    if (operationCatalog[functionName].kind !== 'change') {
      await operation(deps.api)(ctx, next);
      return;
    }
    const audit = { recorded: false };
    const record = async (db: Queryable) => {
      await recordAudit(
        db,
        { actor: session.email, action: functionName, target: account.id, after: ctx.state.input ?? {} },
        deps.now(),
      );
      audit.recorded = true;
    };
    await operation({ ...deps.api, ledger: recordingLedger(deps.api.ledger, record) })(ctx, next);
    if (audit.recorded || ctx.state.code !== '0000') return;
    // Sent already: its answer must reach the user, so a record that cannot be written is logged.
    await record(deps.store).catch((error: unknown) => {
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
    bodyDecoding(deps.config.bodyLimitBytes),
    requestValidation(parserFor(deps.config)),
    auditedOperation(deps),
  ] as Middleware[];
}
