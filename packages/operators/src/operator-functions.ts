// The operator functions: every action the console's operator screens and the CLI take on accounts,
// tokens, funding, the ledger's health, deliveries across accounts, users and the audit log. Each says
// whether it reads or changes, whether it needs a fresh re-authentication, and how its input is checked;
// `callOperatorFunction` applies those rules and writes the audit record of every change, so the console
// and the CLI cannot differ on a rule.

import { formatMinor } from '@topup/ledger';
import type { Ledger, Store } from '@topup/ledger';
import { z } from 'zod';
import { listAudit, recordAudit, type AuditEntry } from './audit-log.js';
import { approveFunding, listFundingRequests, rejectFunding, requestFunding } from './funding-requests.js';
import { deliveryMonitor } from './delivery-monitor.js';
import { OperatorError } from './operator-error.js';
import { searchAccounts } from './account-search.js';
import { createSignInLink, createUser, findUserByEmail, listUsers } from './users.js';
import { accountView, auditView, fundingView, legView, tokenView, unappliedView, userView } from './views.js';
import { shillingsToMinor } from './shillings.js';
import { fundedWithin, fundingWindowMs, lockChannelFunding } from './recent-funding.js';

/** Thrown inside a credit's transaction to cancel it: the funding waits for approval instead. */
const aboveThreshold = new Error('the funding is above the approval threshold');

export type OperatorRole = 'admin' | 'support';

export interface OperatorContext {
  readonly ledger: Ledger;
  readonly store: Store;
  /** Who acts: a console user's email, or `cli:<system user>`. */
  readonly actor: { readonly name: string; readonly role: OperatorRole };
  /** Funding above this many cents waits for a second operator. */
  readonly fundingApprovalThresholdMinor: bigint;
  /** The console address of a one-time sign-in link token. */
  readonly signInUrl: (token: string) => string;
  readonly now: () => Date;
  /** Told when a change committed but its audit record could not be written. */
  readonly onAuditFailure?: (error: unknown, action: string) => void;
}

type Outcome = { readonly data: unknown; readonly audit?: Omit<AuditEntry, 'actor' | 'action'> | undefined };

interface OperatorFunction<S extends z.ZodType> {
  readonly access: 'read' | 'change';
  /** Reveals a secret or moves money: the password must have been typed again lately. */
  readonly reauthenticate: boolean;
  readonly input: S;
  readonly run: (context: OperatorContext, input: z.output<S>) => Promise<Outcome>;
}

function define<S extends z.ZodType>(fn: OperatorFunction<S>): OperatorFunction<S> {
  return fn;
}

const id = z.string().trim().min(1).max(100);
const optionalText = z.string().trim().max(200).optional();
const channel = z.enum(['float', 'airtime']);
const cursor = z.string().max(200).optional();

async function accountOrFail(ledger: Ledger, accountId: string) {
  const account = await ledger.getAccount(accountId);
  if (account === undefined) throw new OperatorError('not_found', `No account ${accountId}.`);
  return account;
}

export const operatorFunctions = {
  list_accounts: define({
    access: 'read',
    reauthenticate: false,
    input: z.object({ query: optionalText, cursor }),
    run: async ({ store }, input) => {
      const page = await searchAccounts(store, { query: input.query, after: input.cursor, limit: 50 });
      return { data: { accounts: page.accounts.map(accountView), next_cursor: page.nextCursor ?? '' } };
    },
  }),
  create_account: define({
    access: 'change',
    reauthenticate: false,
    input: z.object({
      name: z.string().trim().min(1).max(100),
      mobile: optionalText,
      email: optionalText,
      agent_name: optionalText,
      agent_number: optionalText,
      store_number: optionalText,
    }),
    run: async ({ ledger }, input) => {
      const profile = Object.fromEntries(
        Object.entries(input).filter(([, value]) => value !== undefined && value !== ''),
      ) as { name: string };
      const account = accountView(await ledger.createAccount(profile));
      return { data: { account }, audit: { target: account.id, after: account } };
    },
  }),
  set_account_status: define({
    access: 'change',
    reauthenticate: false,
    input: z.object({ account: id, status: z.enum(['active', 'suspended', 'closed']) }),
    run: async ({ ledger }, input) => {
      const before = accountView(await accountOrFail(ledger, input.account));
      const after = accountView(await ledger.setAccountStatus(input.account, input.status));
      return {
        data: { account: after },
        audit: { target: input.account, before: { status: before.status }, after: { status: after.status } },
      };
    },
  }),
  list_tokens: define({
    access: 'read',
    reauthenticate: false,
    input: z.object({ account: id }),
    run: async ({ ledger }, input) => {
      await accountOrFail(ledger, input.account);
      return { data: { tokens: (await ledger.listTokens(input.account)).map(tokenView) } };
    },
  }),
  issue_token: define({
    access: 'change',
    reauthenticate: true,
    input: z.object({ account: id, mode: z.enum(['test', 'live']).default('test') }),
    run: async ({ ledger }, input) => {
      await accountOrFail(ledger, input.account);
      const { token, tokenId } = await ledger.issueToken(input.account, input.mode);
      // The token itself is shown once, here, and never recorded.
      return {
        data: { token_id: tokenId, token, mode: input.mode },
        audit: { target: input.account, after: { token_id: tokenId, mode: input.mode } },
      };
    },
  }),
  revoke_token: define({
    access: 'change',
    reauthenticate: false,
    input: z.object({ token_id: id }),
    run: async ({ ledger }, input) => {
      await ledger.revokeToken(input.token_id);
      return {
        data: { token_id: input.token_id, revoked: true },
        audit: { target: input.token_id, after: { revoked: true } },
      };
    },
  }),
  fund_channel: define({
    access: 'change',
    reauthenticate: true,
    input: z.object({ account: id, channel, amount: z.union([z.string(), z.number()]) }),
    run: async (context, input) => {
      const amountMinor = shillingsToMinor(String(input.amount));
      const { ledger, store, actor, now } = context;
      await accountOrFail(ledger, input.account);
      try {
        const balance = await ledger.fund(input.account, input.channel, amountMinor, {
          within: async (tx) => {
            // Counted over a day, so the threshold cannot be dodged by splitting one large funding into
            // many, and under the channel's lock, so it cannot be dodged by sending them all at once.
            await lockChannelFunding(tx, input.account, input.channel);
            const since = new Date(now().getTime() - fundingWindowMs);
            const recent = await fundedWithin(tx, input.account, input.channel, since);
            if (recent + amountMinor > context.fundingApprovalThresholdMinor) throw aboveThreshold;
            await recordAudit(
              tx,
              {
                actor: actor.name,
                action: 'fund_channel',
                target: input.account,
                after: { channel: input.channel, amount: String(input.amount) },
              },
              now(),
            );
          },
        });
        return {
          data: { state: 'applied', channel: input.channel, available: formatMinor(balance.availableMinor) },
        };
      } catch (error) {
        if (error !== aboveThreshold) throw error;
      }
      const request = await store.transaction(async (tx) => {
        const made = await requestFunding(
          tx,
          { accountId: input.account, channel: input.channel, amountMinor, by: actor.name },
          now(),
        );
        await recordAudit(
          tx,
          { actor: actor.name, action: 'fund_channel', target: input.account, after: fundingView(made) },
          now(),
        );
        return made;
      });
      return { data: { state: 'awaiting_approval', request: fundingView(request) } };
    },
  }),
  list_funding_requests: define({
    access: 'read',
    reauthenticate: false,
    input: z.object({}),
    run: async ({ store }) => ({ data: { requests: (await listFundingRequests(store)).map(fundingView) } }),
  }),
  approve_funding: define({
    access: 'change',
    reauthenticate: true,
    input: z.object({ request_id: id }),
    run: async ({ ledger, store, actor, now }, input) => {
      const { request, balance } = await approveFunding(
        ledger,
        store,
        input.request_id,
        actor.name,
        now(),
        (tx, approved) =>
          recordAudit(
            tx,
            {
              actor: actor.name,
              action: 'approve_funding',
              target: approved.accountId,
              before: { state: 'awaiting_approval' },
              after: fundingView(approved),
            },
            now(),
          ),
      );
      return { data: { request: fundingView(request), available: formatMinor(balance.availableMinor) } };
    },
  }),
  reject_funding: define({
    access: 'change',
    reauthenticate: false,
    input: z.object({ request_id: id }),
    run: async ({ store, actor, now }, input) => {
      const request = fundingView(await rejectFunding(store, input.request_id, actor.name, now()));
      return {
        data: { request },
        audit: { target: request.account, before: { state: 'awaiting_approval' }, after: request },
      };
    },
  }),
  verify_ledger: define({
    access: 'read',
    reauthenticate: false,
    input: z.object({}),
    run: async ({ ledger }) => ({ data: { report: await ledger.verify() } }),
  }),
  list_unapplied_results: define({
    access: 'read',
    reauthenticate: false,
    input: z.object({ reference: optionalText }),
    run: async ({ ledger }, input) => {
      const entries = await ledger.listUnappliedResolutions(
        input.reference === undefined || input.reference === '' ? {} : { reference: input.reference },
      );
      return { data: { results: entries.map(unappliedView) } };
    },
  }),
  list_review_legs: define({
    access: 'read',
    reauthenticate: false,
    input: z.object({}),
    run: async ({ ledger }) => ({ data: { legs: (await ledger.legsForReview(1_000)).map(legView) } }),
  }),
  resolve_leg: define({
    access: 'change',
    reauthenticate: false,
    input: z.object({ leg: id, as: z.enum(['succeeded', 'failed']) }),
    run: async ({ ledger, actor }, input) => {
      const outcome = await ledger.settleReviewedLeg(input.leg, { as: input.as, by: actor.name });
      if (outcome.kind === 'not_found')
        throw new OperatorError('not_found', `No transaction for leg ${input.leg}.`);
      const settled = outcome.kind !== 'already_resolved';
      const transaction = { reference: outcome.transaction.reference, state: outcome.transaction.state };
      return {
        data: { settled, transaction },
        audit: settled
          ? { target: input.leg, before: { state: 'unknown' }, after: { as: input.as, transaction } }
          : undefined,
      };
    },
  }),
  delivery_monitor: define({
    access: 'read',
    reauthenticate: false,
    input: z.object({}),
    run: async ({ store, now }) => ({ data: { endpoints: await deliveryMonitor(store, now()) } }),
  }),
  list_users: define({
    access: 'read',
    reauthenticate: false,
    input: z.object({}),
    run: async ({ store }) => ({ data: { users: (await listUsers(store)).map(userView) } }),
  }),
  create_user: define({
    access: 'change',
    reauthenticate: true,
    input: z.object({ email: z.string().max(254), role: z.string(), account: z.string().optional() }),
    run: async ({ store, signInUrl, now }, input) => {
      const { user, token } = await store.transaction(async (tx) => {
        const made = await createUser(
          tx,
          {
            email: input.email,
            role: input.role,
            accountId: input.account === undefined || input.account === '' ? undefined : input.account,
          },
          now(),
        );
        return { user: made, token: await createSignInLink(tx, made.id, now()) };
      });
      const view = userView(user);
      return { data: { user: view, url: signInUrl(token) }, audit: { target: user.email, after: view } };
    },
  }),
  user_link: define({
    access: 'change',
    reauthenticate: true,
    input: z.object({ email: z.string().max(254) }),
    run: async ({ store, signInUrl, now }, input) => {
      const user = await findUserByEmail(store, input.email);
      if (user === undefined) throw new OperatorError('not_found', `No user with email ${input.email}.`);
      const token = await createSignInLink(store, user.id, now());
      return { data: { user: userView(user), url: signInUrl(token) }, audit: { target: user.email } };
    },
  }),
  list_audit: define({
    access: 'read',
    reauthenticate: false,
    input: z.object({
      cursor: z
        .string()
        .regex(/^\d{1,18}$/)
        .optional(),
      actor: optionalText,
      action: optionalText,
    }),
    run: async ({ store }, input) => {
      const page = await listAudit(store, {
        before: input.cursor,
        actor: input.actor === '' ? undefined : input.actor,
        action: input.action === '' ? undefined : input.action,
        limit: 50,
      });
      return { data: { records: page.records.map(auditView), next_cursor: page.nextCursor ?? '' } };
    },
  }),
} as const;

export type OperatorFunctionName = keyof typeof operatorFunctions;

export function isOperatorFunction(name: string): name is OperatorFunctionName {
  return Object.hasOwn(operatorFunctions, name);
}

/** What an operator function needs of the caller: is it a change, does it need re-authentication. */
export function operatorFunctionRules(name: OperatorFunctionName): {
  access: 'read' | 'change';
  reauthenticate: boolean;
} {
  const fn = operatorFunctions[name];
  return { access: fn.access, reauthenticate: fn.reauthenticate };
}

/**
 * Runs an operator function for an actor: support may only read, a function that reveals a secret or moves
 * money needs `reauthenticated`, the input must satisfy the function's rules, and a change is audited.
 */
export async function callOperatorFunction(
  context: OperatorContext,
  name: string,
  body: unknown,
  options: { readonly reauthenticated: boolean },
): Promise<unknown> {
  if (!isOperatorFunction(name)) throw new OperatorError('not_found', `No operator function ${name}.`);
  const fn = operatorFunctions[name] as OperatorFunction<z.ZodType>;
  if (fn.access === 'change' && context.actor.role !== 'admin')
    throw new OperatorError(
      'forbidden',
      `${name} changes something; role ${context.actor.role} is read-only.`,
    );
  if (fn.reauthenticate && !options.reauthenticated)
    throw new OperatorError('reauthentication_required', `${name} needs your password again.`);
  const parsed = fn.input.safeParse(body ?? {});
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.') || 'body'}: ${issue.message}`,
    );
    throw new OperatorError('invalid', problems.join('; '), problems);
  }
  const outcome = await fn.run(context, parsed.data);
  if (outcome.audit !== undefined) {
    // The change has committed: its answer (a token, a link) must reach the operator even if the store
    // fails now, so a lost record is reported to the service's log rather than thrown.
    await recordAudit(
      context.store,
      { actor: context.actor.name, action: name, ...outcome.audit },
      context.now(),
    ).catch((error: unknown) => {
      context.onAuditFailure?.(error, name);
    });
  }
  return outcome.data;
}
