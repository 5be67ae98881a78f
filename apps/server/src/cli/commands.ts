// The operator commands: accounts, tokens, channel funding, callback endpoints and deliveries, ledger
// verification and migrations, console users, funding approvals and the audit log. Each takes parsed
// options and returns what to print; none writes to the console itself. Account, token, funding and user
// commands run the operator functions the console calls (audited, under the same rules); callback
// commands apply the same rules as the API functions they mirror.

import { formatMinor } from '@topup/ledger';
import type { TransactionState } from '@topup/envelope';
import type { AccountStatus, DeliveryStatus, Ledger, Store } from '@topup/ledger';
import { checkCallbackUrl } from '@topup/worker';
import type { CallbackUrlPolicy } from '@topup/worker';
import { migrateService } from '@topup/service';
import { callOperatorFunction, legView, recordAudit } from '@topup/operators';
import { callbackDeliveryView as deliveryView } from '@topup/ledger';
import type { CommandResult } from './cli-output.js';
import { CommandFailure, UsageError } from './cli-output.js';

export type Options = Readonly<Record<string, string | boolean | undefined>>;

export interface CommandContext {
  readonly ledger: Ledger;
  readonly store: Store;
  readonly options: Options;
  readonly graceSeconds: number;
  /** Callback endpoints an account may have (CALLBACK_MAX_ENDPOINTS), as the API enforces. */
  readonly maxEndpoints: number;
  /** Where callbacks may go: the same policy the API applies to add_callback_endpoint. */
  readonly callbackUrlPolicy: CallbackUrlPolicy;
  /** Who runs the command (the system user), recorded on what an operator settles unless `--by` says. */
  readonly operator: string;
  /** Funding above this many cents waits for a second operator (FUNDING_APPROVAL_THRESHOLD). */
  readonly fundingApprovalThresholdMinor: bigint;
  /** The console address of a one-time sign-in link token. */
  readonly signInUrl: (token: string) => string;
}

/**
 * Runs one of the operator functions the console calls, as the system user with the admin role: the CLI
 * runs on the store itself, so it is trusted like an admin who has just re-authenticated.
 */
function operatorCall(
  context: CommandContext,
  name: string,
  body: Record<string, unknown>,
): Promise<unknown> {
  return callOperatorFunction(
    {
      ledger: context.ledger,
      store: context.store,
      actor: { name: `cli:${context.operator}`, role: 'admin' },
      fundingApprovalThresholdMinor: context.fundingApprovalThresholdMinor,
      signInUrl: context.signInUrl,
      now: () => new Date(),
      onAuditFailure: (error) => {
        process.stderr.write(
          `topup: warning: the change was made but its audit record was not written: ${String(error)}\n`,
        );
      },
    },
    name,
    body,
    { reauthenticated: true },
  );
}

function required(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function optional(options: Options, name: string): string | undefined {
  const value = options[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function channelOf(options: Options): 'float' | 'airtime' {
  const channel = required(options, 'channel');
  if (channel !== 'float' && channel !== 'airtime') {
    throw new UsageError(`--channel must be float or airtime, received ${JSON.stringify(channel)}`);
  }
  return channel;
}

function modeOf(options: Options): 'test' | 'live' {
  const mode = optional(options, 'mode') ?? 'test';
  if (mode !== 'test' && mode !== 'live')
    throw new UsageError(`--mode must be test or live, received ${JSON.stringify(mode)}`);
  return mode;
}

async function accountCreate(context: CommandContext): Promise<CommandResult> {
  const { options } = context;
  const { account } = (await operatorCall(context, 'create_account', {
    name: required(options, 'name'),
    ...optionalProfile(options),
  })) as { account: { id: string; name: string } };
  const { token, token_id: tokenId } = (await operatorCall(context, 'issue_token', {
    account: account.id,
    mode: modeOf(options),
  })) as { token: string; token_id: string };
  return {
    json: { account: account.id, token, tokenId },
    human: `Created account ${account.id} (${account.name}).\nAPI token (shown only now): ${token}`,
  };
}

function optionalProfile(options: Options) {
  const fields = {
    mobile: optional(options, 'mobile'),
    email: optional(options, 'email'),
    agent_name: optional(options, 'agent-name'),
    agent_number: optional(options, 'agent-number'),
    store_number: optional(options, 'store-number'),
  };
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
}

function accountStatusCommand(status: AccountStatus) {
  return async (context: CommandContext): Promise<CommandResult> => {
    const { account } = (await operatorCall(context, 'set_account_status', {
      account: required(context.options, 'account'),
      status,
    })) as { account: { id: string; status: string } };
    return {
      json: { account: account.id, status: account.status },
      human: `Account ${account.id} is now ${account.status}.`,
    };
  };
}

async function accountList({ ledger }: CommandContext): Promise<CommandResult> {
  const accounts = await ledger.listAccounts();
  return {
    json: accounts.map((account) => ({ id: account.id, name: account.name, status: account.status })),
    human:
      accounts.length === 0
        ? 'No accounts.'
        : accounts.map((a) => `${a.id}  ${a.status.padEnd(9)}  ${a.name}`).join('\n'),
  };
}

async function tokenIssue(context: CommandContext): Promise<CommandResult> {
  const { token, token_id: tokenId } = (await operatorCall(context, 'issue_token', {
    account: required(context.options, 'account'),
    mode: modeOf(context.options),
  })) as { token: string; token_id: string };
  return {
    json: { tokenId, token },
    human: `Issued token ${tokenId}.\nAPI token (shown only now): ${token}`,
  };
}

async function tokenRevoke(context: CommandContext): Promise<CommandResult> {
  const tokenId = required(context.options, 'token-id');
  await operatorCall(context, 'revoke_token', { token_id: tokenId });
  return { json: { tokenId, revoked: true }, human: `Revoked token ${tokenId}.` };
}

async function tokenList({ ledger, options }: CommandContext): Promise<CommandResult> {
  const tokens = await ledger.listTokens(required(options, 'account'));
  return {
    json: tokens,
    human:
      tokens.length === 0
        ? 'No tokens.'
        : tokens
            .map(
              (t) => `${t.id}  ${t.prefix}…  ${t.mode}  ${t.revokedAt === undefined ? 'active' : 'revoked'}`,
            )
            .join('\n'),
  };
}

async function channelFund(context: CommandContext): Promise<CommandResult> {
  const { options } = context;
  const accountId = required(options, 'account');
  const channel = channelOf(options);
  const amount = required(options, 'amount');
  const outcome = (await operatorCall(context, 'fund_channel', { account: accountId, channel, amount })) as
    { state: 'applied'; available: string } | { state: 'awaiting_approval'; request: { id: string } };
  if (outcome.state === 'awaiting_approval') {
    return {
      json: { account: accountId, channel, state: outcome.state, request: outcome.request },
      human: `Funding ${amount} to ${channel} of ${accountId} is above FUNDING_APPROVAL_THRESHOLD: request ${outcome.request.id} waits for another operator's approval.`,
    };
  }
  return {
    json: { account: accountId, channel, state: outcome.state, available: outcome.available },
    human: `Funded ${channel} of ${accountId}; available balance KES ${outcome.available}.`,
  };
}

async function channelBalance({ ledger, options }: CommandContext): Promise<CommandResult> {
  const accountId = required(options, 'account');
  const balances = await Promise.all([
    ledger.balance(accountId, 'float'),
    ledger.balance(accountId, 'airtime'),
  ]);
  return {
    json: balances.map((b) => ({
      channel: b.channel,
      available: formatMinor(b.availableMinor),
      pending: formatMinor(b.pendingMinor),
    })),
    human: balances
      .map(
        (b) =>
          `${b.channel.padEnd(7)}  available KES ${formatMinor(b.availableMinor)}  pending KES ${formatMinor(b.pendingMinor)}`,
      )
      .join('\n'),
  };
}

async function endpointAdd({
  ledger,
  options,
  callbackUrlPolicy,
  maxEndpoints,
}: CommandContext): Promise<CommandResult> {
  const format = optional(options, 'format') ?? 'json';
  if (format !== 'json' && format !== 'xml')
    throw new UsageError(`--format must be json or xml, received ${JSON.stringify(format)}`);
  const description = optional(options, 'description');
  const url = required(options, 'url');
  // The policy add_callback_endpoint applies; it is checked again at every delivery.
  const check = await checkCallbackUrl(url, callbackUrlPolicy);
  // The API's answer, 3000 'url is invalid'; the operator also reads why.
  if (!check.ok) throw new CommandFailure('3000', `'url is invalid': ${check.problem}`);
  const { endpoint, secret } = await ledger.addCallbackEndpoint(
    required(options, 'account'),
    { url, format, ...(description === undefined ? {} : { description }) },
    { maxEndpoints },
  );
  return {
    json: { endpoint: endpoint.id, secret },
    human: `Added endpoint ${endpoint.id} → ${endpoint.url}.\nSigning secret (shown only now): ${secret}`,
  };
}

async function endpointList({ ledger, options }: CommandContext): Promise<CommandResult> {
  const endpoints = await ledger.listCallbackEndpoints(required(options, 'account'));
  return {
    json: endpoints,
    human:
      endpoints.length === 0
        ? 'No endpoints.'
        : endpoints
            .map(
              (e) =>
                `${e.id}  ${e.enabled ? 'enabled ' : 'disabled'}  ${e.format}  ${e.url}` +
                (e.enabled ? '' : `  (${e.disabledReason})`),
            )
            .join('\n'),
  };
}

function endpointNotFound(accountId: string, endpointId: string): CommandFailure {
  return new CommandFailure(
    'endpoint_not_found',
    `No callback endpoint ${endpointId} on account ${accountId}.`,
  );
}

async function endpointRemove({ ledger, options }: CommandContext): Promise<CommandResult> {
  const accountId = required(options, 'account');
  const endpointId = required(options, 'endpoint');
  const removed = await ledger.removeCallbackEndpoint(accountId, endpointId);
  if (!removed) throw endpointNotFound(accountId, endpointId);
  return { json: { endpoint: endpointId, removed }, human: `Removed endpoint ${endpointId}.` };
}

async function endpointRotate({ ledger, options, graceSeconds }: CommandContext): Promise<CommandResult> {
  const accountId = required(options, 'account');
  const endpointId = required(options, 'endpoint');
  const secret = await ledger.rotateCallbackSecret(accountId, endpointId, graceSeconds);
  if (secret === undefined) throw endpointNotFound(accountId, endpointId);
  return {
    json: { endpoint: endpointId, secret },
    human: `New signing secret (shown only now): ${secret}\nThe previous one stays valid for ${graceSeconds} s.`,
  };
}

async function callbackResend({ ledger, options }: CommandContext): Promise<CommandResult> {
  const accountId = required(options, 'account');
  const reference = required(options, 'reference');
  const endpointId = optional(options, 'endpoint');
  // As resend_callback answers 3000: queueing nothing is never a success.
  const transaction = await ledger.getTransaction(accountId, reference);
  if (transaction === undefined) {
    throw new CommandFailure('transaction_not_found', `No transaction ${reference} on account ${accountId}.`);
  }
  const count = await ledger.resendCallbacks(accountId, reference, endpointId);
  if (count === 0) throw nothingResent(accountId, reference, transaction.state, endpointId);
  return {
    json: { reference, deliveries: count },
    human: `Queued ${count} callback deliveries for ${reference}.`,
  };
}

/** Why a transaction that exists had no callback to queue. */
function nothingResent(
  accountId: string,
  reference: string,
  state: TransactionState,
  endpointId: string | undefined,
): CommandFailure {
  if (state === 'requested') {
    return new CommandFailure(
      'nothing_to_resend',
      `Transaction ${reference} has not completed or been cancelled yet, so it has no callback to resend.`,
    );
  }
  if (endpointId !== undefined) {
    return new CommandFailure(
      'endpoint_not_found',
      `No enabled callback endpoint ${endpointId} on account ${accountId} to resend ${reference} to.`,
    );
  }
  return new CommandFailure(
    'nothing_to_resend',
    `Account ${accountId} has no enabled callback endpoint to resend ${reference} to.`,
  );
}

function deliveryStatusOf(options: Options): DeliveryStatus | undefined {
  const status = optional(options, 'status');
  if (status === undefined || status === 'pending' || status === 'delivered' || status === 'failed')
    return status;
  throw new UsageError(`--status must be pending, delivered or failed, received ${JSON.stringify(status)}`);
}

async function callbackDeliveries({ ledger, options }: CommandContext): Promise<CommandResult> {
  const reference = optional(options, 'reference');
  const status = deliveryStatusOf(options);
  const deliveries = (
    await ledger.listDeliveries(required(options, 'account'), {
      ...(reference === undefined ? {} : { reference }),
      ...(status === undefined ? {} : { status }),
    })
  ).map(deliveryView);
  const lines = deliveries.flatMap((delivery) => [
    `${delivery.id}  ${delivery.reference}  ${delivery.endpoint_id}  ${delivery.status}` +
      (delivery.next_attempt === '' ? '' : `  next attempt ${delivery.next_attempt}`),
    ...delivery.attempts.map(
      (attempt) =>
        `  ${attempt.attempted}  ${attempt.outcome.padEnd(13)}  ${(attempt.http_status || '-').padEnd(3)}  ` +
        `${attempt.duration_ms} ms` +
        (attempt.error === '' ? '' : `  ${attempt.error}`) +
        (attempt.response_excerpt === '' ? '' : `  ${JSON.stringify(attempt.response_excerpt.slice(0, 80))}`),
    ),
  ]);
  return {
    json: deliveries,
    human: lines.length === 0 ? 'No callback deliveries.' : lines.join('\n'),
  };
}

async function ledgerVerify({ ledger }: CommandContext): Promise<CommandResult> {
  const report = await ledger.verify();
  return {
    json: report,
    human: report.ok
      ? 'Ledger verified: every invariant holds.'
      : `Ledger breaches:\n${report.breaches.map((b) => `  - ${b}`).join('\n')}`,
  };
}

async function ledgerUnapplied({ ledger, options }: CommandContext): Promise<CommandResult> {
  const reference = optional(options, 'reference');
  const entries = (await ledger.listUnappliedResolutions(reference === undefined ? {} : { reference })).map(
    (entry) => ({
      reference: entry.reference,
      asked: entry.asked,
      state: entry.state,
      provider_code: entry.providerCode,
      reason: entry.reason,
      received: entry.receivedAt.toISOString(),
    }),
  );
  const lines = entries.map(
    (entry) =>
      `${entry.received}  ${entry.reference}  asked ${entry.asked}, was ${entry.state}` +
      (entry.provider_code === '' ? '' : `  provider code ${entry.provider_code}`) +
      (entry.reason === '' ? '' : `  ${JSON.stringify(entry.reason)}`),
  );
  return {
    json: entries,
    human: lines.length === 0 ? 'No unapplied resolutions.' : lines.join('\n'),
  };
}

function legLine(leg: ReturnType<typeof legView>): string {
  return (
    `${leg.id}  ${leg.state}` +
    (leg.provider === '' ? '' : `  via ${leg.provider}`) +
    (leg.provider_reference === '' ? '' : `  provider ref ${leg.provider_reference}`) +
    (leg.review_since === null ? '' : `  waiting for review since ${leg.review_since}`) +
    (leg.reviewed_by === '' ? '' : `  settled by ${leg.reviewed_by} at ${leg.reviewed_at ?? ''}`)
  );
}

async function legsList({ ledger, options }: CommandContext): Promise<CommandResult> {
  const reference = required(options, 'reference');
  const legs = (await ledger.legs(reference)).map(legView);
  return {
    json: legs,
    human:
      legs.length === 0
        ? `No legs for ${reference} (unknown, or not yet submitted).`
        : legs.map(legLine).join('\n'),
  };
}

async function legsUnresolved({ ledger }: CommandContext): Promise<CommandResult> {
  const legs = (await ledger.legsForReview(1_000)).map(legView);
  return {
    json: legs,
    human: legs.length === 0 ? 'No legs waiting for review.' : legs.map(legLine).join('\n'),
  };
}

async function legsResolve({ ledger, store, options, operator }: CommandContext): Promise<CommandResult> {
  const id = required(options, 'leg');
  const as = required(options, 'as');
  if (as !== 'succeeded' && as !== 'failed') {
    throw new UsageError(`--as must be succeeded or failed, received ${JSON.stringify(as)}`);
  }
  const by = optional(options, 'by') ?? operator;
  const outcome = await ledger.settleReviewedLeg(id, { as, by });
  if (outcome.kind === 'not_found')
    throw new CommandFailure('transaction_not_found', `No transaction for leg ${id}.`);
  const [leg] = (await ledger.legs(outcome.transaction.reference)).filter((entry) => entry.id === id);
  const settled = outcome.kind !== 'already_resolved';
  // Settling a leg moves money (a refund may follow), so the CLI's settlement is audited like the console's.
  if (settled) {
    await recordAudit(
      store,
      {
        actor: `cli:${operator}`,
        action: 'resolve_leg',
        target: id,
        before: { state: 'unknown' },
        after: {
          as,
          by,
          transaction: { reference: outcome.transaction.reference, state: outcome.transaction.state },
        },
      },
      new Date(),
    );
  }
  return {
    json: {
      settled,
      transaction: { reference: outcome.transaction.reference, state: outcome.transaction.state },
      leg: leg === undefined ? null : legView(leg),
    },
    human: settled
      ? `Leg ${id} settled as ${as} by ${by}; transaction ${outcome.transaction.reference} is ${outcome.transaction.state}${outcome.kind === 'leg_settled' ? ', and its payment will be refunded' : ''}.`
      : `Transaction ${outcome.transaction.reference} was already ${outcome.transaction.state}; nothing changed.`,
  };
}

interface UserAnswer {
  user: { email: string; role: string; account: string };
  url: string;
}

function userLinkResult(answer: UserAnswer, made: boolean): CommandResult {
  const { user, url } = answer;
  return {
    json: { ...user, url },
    human:
      `${made ? 'Created' : 'New sign-in link for'} ${user.role} ${user.email}${user.account === '' ? '' : ` of account ${user.account}`}.\n` +
      `One-time sign-in link (valid 15 minutes; open it to set the password):\n${url}`,
  };
}

async function userCreate(context: CommandContext): Promise<CommandResult> {
  const { options } = context;
  const account = optional(options, 'account');
  const answer = (await operatorCall(context, 'create_user', {
    email: required(options, 'email'),
    role: required(options, 'role'),
    ...(account === undefined ? {} : { account }),
  })) as UserAnswer;
  return userLinkResult(answer, true);
}

async function userLink(context: CommandContext): Promise<CommandResult> {
  const answer = (await operatorCall(context, 'user_link', {
    email: required(context.options, 'email'),
  })) as UserAnswer;
  return userLinkResult(answer, false);
}

async function userList(context: CommandContext): Promise<CommandResult> {
  const { users } = (await operatorCall(context, 'list_users', {})) as {
    users: { email: string; role: string; account: string; has_password: boolean }[];
  };
  return {
    json: users,
    human:
      users.length === 0
        ? 'No console users.'
        : users
            .map(
              (u) =>
                `${u.email}  ${u.role}${u.account === '' ? '' : ` (${u.account})`}${u.has_password ? '' : '  link not used yet'}`,
            )
            .join('\n'),
  };
}

async function fundingList(context: CommandContext): Promise<CommandResult> {
  const { requests } = (await operatorCall(context, 'list_funding_requests', {})) as {
    requests: {
      id: string;
      account: string;
      channel: string;
      amount: string;
      requested_by: string;
      state: string;
    }[];
  };
  return {
    json: requests,
    human:
      requests.length === 0
        ? 'No funding requests.'
        : requests
            .map(
              (r) =>
                `${r.id}  ${r.state.padEnd(17)}  ${r.account}  ${r.channel}  KES ${r.amount}  by ${r.requested_by}`,
            )
            .join('\n'),
  };
}

function fundingDecision(name: 'approve_funding' | 'reject_funding') {
  return async (context: CommandContext): Promise<CommandResult> => {
    const answer = (await operatorCall(context, name, {
      request_id: required(context.options, 'request'),
    })) as {
      request: { id: string; state: string };
    };
    return { json: answer, human: `Funding request ${answer.request.id} is ${answer.request.state}.` };
  };
}

async function auditList(context: CommandContext): Promise<CommandResult> {
  const cursor = optional(context.options, 'cursor');
  const answer = (await operatorCall(context, 'list_audit', cursor === undefined ? {} : { cursor })) as {
    records: { at: string; actor: string; action: string; target: string }[];
    next_cursor: string;
  };
  return {
    json: answer,
    human:
      answer.records.length === 0
        ? 'No audit records.'
        : answer.records.map((r) => `${r.at}  ${r.actor}  ${r.action}  ${r.target}`).join('\n') +
          (answer.next_cursor === '' ? '' : `\nMore: --cursor ${answer.next_cursor}`),
  };
}

async function migrateCommand({ store }: CommandContext): Promise<CommandResult> {
  const { applied } = await migrateService(store);
  return {
    json: { applied },
    human: applied.length === 0 ? 'Schema is up to date.' : `Applied: ${applied.join(', ')}`,
  };
}

export const commands: Readonly<Record<string, (context: CommandContext) => Promise<CommandResult>>> = {
  'account create': accountCreate,
  'account list': accountList,
  'account suspend': accountStatusCommand('suspended'),
  'account resume': accountStatusCommand('active'),
  'account close': accountStatusCommand('closed'),
  'token issue': tokenIssue,
  'token revoke': tokenRevoke,
  'token list': tokenList,
  'channel fund': channelFund,
  'channel balance': channelBalance,
  'endpoint add': endpointAdd,
  'endpoint list': endpointList,
  'endpoint remove': endpointRemove,
  'endpoint rotate': endpointRotate,
  'callback resend': callbackResend,
  'callback deliveries': callbackDeliveries,
  'ledger verify': ledgerVerify,
  'ledger unapplied': ledgerUnapplied,
  'legs list': legsList,
  'legs unresolved': legsUnresolved,
  'legs resolve': legsResolve,
  'user create': userCreate,
  'user link': userLink,
  'user list': userList,
  'funding list': fundingList,
  'funding approve': fundingDecision('approve_funding'),
  'funding reject': fundingDecision('reject_funding'),
  'audit list': auditList,
  migrate: migrateCommand,
};

/** Whether a command's result means failure (the process exits non-zero). */
export function failed(name: string, result: CommandResult): boolean {
  return name === 'ledger verify' && !(result.json as { ok: boolean }).ok;
}
