// What the user functions of the catalog do: console users, their sign-in links, disabling them, the
// requests that need a second admin, and the audit log.

import type { Queryable } from '@topup/ledger';
import { decideAdminRequest, listAdminRequests, requestAdminChange } from '../admin-requests.js';
import type { AdminRequestKind } from '../admin-requests.js';
import { listAudit } from '../audit-log.js';
import { OperatorError } from '../operator-error.js';
import type { OperatorCall } from '../operator-context.js';
import {
  checkNewUser,
  createSignInLink,
  createUser,
  listUsers,
  otherAdmins,
  setUserDisabled,
  userByEmail,
  type ConsoleUser,
} from '../users.js';
import { adminRequestView, auditView, userView } from '../views.js';
import { consoleApprover } from './funding.js';
import type { Implementations } from './implementation.js';

/**
 * Whether making the admin `email`, or a link for them, needs a second admin. Always in the console, where
 * an admin asks; from the CLI only while another admin exists who could approve it, so the first admin
 * of a new service (or a lone admin's lost password) needs no one.
 */
async function needsSecondAdmin({ store, actor }: OperatorCall, email: string): Promise<boolean> {
  return actor.kind === 'console' || (await otherAdmins(store, email)) > 0;
}

/** Records a request for a second admin's approval, audited, and answers it. */
async function askSecondAdmin(call: OperatorCall, kind: AdminRequestKind, email: string) {
  const request = await call.store.transaction(async (tx) => {
    const made = await requestAdminChange(tx, { kind, email, by: call.actor.name }, call.now());
    await call.record(tx, { target: made.email, after: adminRequestView(made) });
    return made;
  });
  return { state: 'awaiting_approval' as const, request: adminRequestView(request) };
}

/** Makes a sign-in link for the user, audited, and answers it. */
async function newLink(call: OperatorCall, make: (tx: Queryable) => Promise<ConsoleUser>) {
  return call.store.transaction(async (tx) => {
    const user = await make(tx);
    const token = await createSignInLink(tx, user.id, call.now());
    await call.record(tx, { target: user.email, after: userView(user) });
    return { state: 'created' as const, user: userView(user), url: call.signInUrl(token) };
  });
}

async function switchUser(call: OperatorCall, email: string, disabled: boolean) {
  const user = await userByEmail(call.store, email);
  if (disabled && call.actor.kind === 'console' && user.email === call.actor.name)
    throw new OperatorError('conflict', 'You cannot disable yourself; another admin can.');
  const changed = await call.store.transaction(async (tx) => {
    const done = await setUserDisabled(tx, user.id, disabled, call.now());
    if (done === undefined)
      throw new OperatorError('conflict', `${user.email} is already ${disabled ? 'disabled' : 'enabled'}.`);
    await call.record(tx, { target: user.email, before: { disabled: !disabled }, after: { disabled } });
    return done;
  });
  return { user: userView(changed) };
}

export const userImplementations: Implementations<
  | 'list_users'
  | 'create_user'
  | 'user_link'
  | 'disable_user'
  | 'enable_user'
  | 'list_admin_requests'
  | 'approve_admin_request'
  | 'reject_admin_request'
  | 'list_audit'
> = {
  async list_users({ store }) {
    return { users: (await listUsers(store)).map(userView) };
  },
  async create_user(call, input) {
    const user = {
      email: input.email,
      role: input.role,
      accountId: input.account === undefined || input.account === '' ? undefined : input.account,
    };
    if (input.role === 'admin' && (await needsSecondAdmin(call, input.email))) {
      await checkNewUser(call.store, user);
      return askSecondAdmin(call, 'create_admin', input.email);
    }
    return newLink(call, (tx) => createUser(tx, user, call.now()));
  },
  async user_link(call, input) {
    const user = await userByEmail(call.store, input.email);
    if (user.disabledAt !== undefined)
      throw new OperatorError('conflict', `${user.email} is disabled; enable them first.`);
    if (user.role === 'admin' && (await needsSecondAdmin(call, user.email)))
      return askSecondAdmin(call, 'admin_link', user.email);
    return newLink(call, () => Promise.resolve(user));
  },
  disable_user: (call, input) => switchUser(call, input.email, true),
  enable_user: (call, input) => switchUser(call, input.email, false),
  async list_admin_requests({ store }) {
    return { requests: (await listAdminRequests(store)).map(adminRequestView) };
  },
  async approve_admin_request(call, input) {
    const approver = consoleApprover(call.actor);
    return call.store.transaction(async (tx) => {
      const request = await decideAdminRequest(tx, input.request_id, approver, 'approved', call.now());
      const user =
        request.kind === 'create_admin'
          ? await createUser(tx, { email: request.email, role: 'admin' }, call.now())
          : await userByEmail(tx, request.email);
      if (user.role !== 'admin' || user.disabledAt !== undefined)
        throw new OperatorError(
          'conflict',
          `${user.email} is no longer an admin who may sign in; reject the request instead.`,
        );
      const token = await createSignInLink(tx, user.id, call.now());
      const view = adminRequestView(request);
      await call.record(tx, { target: request.email, before: { state: 'awaiting_approval' }, after: view });
      return { request: view, user: userView(user), url: call.signInUrl(token) };
    });
  },
  async reject_admin_request(call, input) {
    const request = await call.store.transaction(async (tx) => {
      const rejected = adminRequestView(
        await decideAdminRequest(tx, input.request_id, { name: call.actor.name }, 'rejected', call.now()),
      );
      await call.record(tx, {
        target: rejected.email,
        before: { state: 'awaiting_approval' },
        after: rejected,
      });
      return rejected;
    });
    return { request };
  },
  async list_audit({ store }, input) {
    const page = await listAudit(store, {
      before: input.cursor,
      actor: input.actor === '' ? undefined : input.actor,
      action: input.action === '' ? undefined : input.action,
      limit: 50,
    });
    return { records: page.records.map(auditView), next_cursor: page.nextCursor ?? '' };
  },
};
