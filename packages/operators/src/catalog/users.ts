// Operator functions on console users, the requests that need a second admin (a new admin, a sign-in
// link for an admin), and the audit log.

import { z } from 'zod';
import { email, id, optionalText, pageLines } from './fields.js';
import { answerOf, operatorFunction } from './operator-function.js';
import type { AdminRequestView, AuditRecordView, ConsoleUserView, SignInLinkOutcome } from './views.js';

function linkJson(outcome: SignInLinkOutcome): unknown {
  return outcome.state === 'created' ? { ...outcome.user, url: outcome.url } : outcome;
}

function linkText(outcome: SignInLinkOutcome, made: boolean): string {
  if (outcome.state === 'awaiting_approval') {
    const { request } = outcome;
    return `Request ${request.id} (${request.kind.replace('_', ' ')} for ${request.email}) waits for another admin's approval in the console; the approver is shown the sign-in link.`;
  }
  const { user, url } = outcome;
  return (
    `${made ? 'Created' : 'New sign-in link for'} ${user.role} ${user.email}${user.account === '' ? '' : ` of account ${user.account}`}.\n` +
    `One-time sign-in link (valid 15 minutes; open it to set the password):\n${url}`
  );
}

const byEmail = z.object({ email });

function userSwitch(command: string, summary: string, done: string) {
  return {
    command,
    summary,
    human: ({ user }: { user: ConsoleUserView }) => `${user.email} is ${done}.`,
  };
}

export const userFunctions = {
  list_users: operatorFunction({
    summary: 'Every console user: role, account, whether a password is set, whether disabled.',
    input: z.object({}),
    answer: answerOf<{ users: ConsoleUserView[] }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'user list',
        summary: 'console users and their roles',
        json: ({ users }) => users,
        human: ({ users }) =>
          pageLines(
            users.map(
              (u) =>
                `${u.email}  ${u.role}${u.account === '' ? '' : ` (${u.account})`}` +
                (u.has_password ? '' : '  link not used yet') +
                (u.disabled === '' ? '' : '  disabled'),
            ),
            'No console users.',
          ),
      },
    ],
  }),
  create_user: operatorFunction({
    summary:
      'Creates a user and a one-time sign-in link (15 minutes). A new admin waits for another admin’s approval, unless there is no admin at all yet.',
    input: z.object({
      email: z.string().max(254),
      role: z.enum(['admin', 'support', 'caller']),
      account: z.string().optional(),
    }),
    answer: answerOf<SignInLinkOutcome>(),
    access: 'change',
    reauthenticate: true,
    cli: [
      {
        command: 'user create',
        summary:
          'creates a console user and prints a one-time sign-in link; a new admin waits for an admin’s approval',
        json: linkJson,
        human: (outcome) => linkText(outcome, true),
      },
    ],
  }),
  user_link: operatorFunction({
    summary:
      'A new one-time sign-in link for a user (a forgotten password); older links stop working. A link for an admin waits for another admin’s approval.',
    input: byEmail,
    answer: answerOf<SignInLinkOutcome>(),
    access: 'change',
    reauthenticate: true,
    cli: [
      {
        command: 'user link',
        summary: 'prints a new one-time sign-in link; one for an admin waits for another admin’s approval',
        json: linkJson,
        human: (outcome) => linkText(outcome, false),
      },
    ],
  }),
  disable_user: operatorFunction({
    summary:
      'Disables a user: their sessions and links end at once, and signing in answers as a wrong password does.',
    input: byEmail,
    answer: answerOf<{ user: ConsoleUserView }>(),
    access: 'change',
    reauthenticate: false,
    cli: [userSwitch('user disable', 'disables a user: their sessions and links end at once', 'disabled')],
  }),
  enable_user: operatorFunction({
    summary: 'Lets a disabled user sign in again, with the password they had.',
    input: byEmail,
    answer: answerOf<{ user: ConsoleUserView }>(),
    access: 'change',
    reauthenticate: false,
    cli: [userSwitch('user enable', 'lets a disabled user sign in again', 'enabled')],
  }),
  list_admin_requests: operatorFunction({
    summary: 'New admins and admins’ sign-in links awaiting a second admin, then the 50 decided last.',
    input: z.object({}),
    answer: answerOf<{ requests: AdminRequestView[] }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'user requests',
        summary: 'new admins and admins’ links awaiting a second admin’s approval',
        json: ({ requests }) => requests,
        human: ({ requests }) =>
          pageLines(
            requests.map(
              (r) => `${r.id}  ${r.state.padEnd(17)}  ${r.kind.padEnd(12)}  ${r.email}  by ${r.requested_by}`,
            ),
            'No admin requests.',
          ),
      },
    ],
  }),
  approve_admin_request: operatorFunction({
    summary:
      'Approves a new admin or an admin’s sign-in link: by a signed-in admin other than the one who asked, whose account existed before the request. Answers the link, shown this once.',
    input: z.object({ request_id: id }),
    answer: answerOf<{ request: AdminRequestView; user: ConsoleUserView; url: string }>(),
    access: 'change',
    reauthenticate: true,
    cli: [],
  }),
  reject_admin_request: operatorFunction({
    summary: 'Rejects a new admin or an admin’s sign-in link; never by the operator who asked.',
    input: z.object({ request_id: id }),
    answer: answerOf<{ request: AdminRequestView }>(),
    access: 'change',
    reauthenticate: false,
    cli: [
      {
        command: 'user reject',
        summary: 'rejects a request for a new admin or an admin’s link',
        options: { request_id: 'request' },
        human: ({ request }) => `Request ${request.id} is ${request.state}.`,
      },
    ],
  }),
  list_audit: operatorFunction({
    summary: 'The audit log, newest first, 50 a page: who did what to which target, before and after.',
    input: z.object({
      cursor: z
        .string()
        .regex(/^\d{1,18}$/)
        .optional(),
      actor: optionalText,
      action: optionalText,
    }),
    answer: answerOf<{ records: AuditRecordView[]; next_cursor: string }>(),
    access: 'read',
    reauthenticate: false,
    cli: [
      {
        command: 'audit list',
        summary: 'the audit log, newest first',
        human: ({ records, next_cursor }) =>
          pageLines(
            records.map((r) => `${r.at}  ${r.actor}  ${r.action}  ${r.target}`),
            'No audit records.',
            next_cursor,
          ),
      },
    ],
  }),
};
