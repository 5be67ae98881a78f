// Console users: who may sign in with which role, creating one, giving anyone a new one-time sign-in link
// (a forgotten password), and disabling or enabling them. A new admin and a link for an admin wait for a
// second admin, whose account is older than the request: the same screen lists those requests, and the
// admin who approves one is shown the link, once.

import type { AdminRequestView, ConsoleUserView, Role, SignInLinkOutcome } from '@topup/operators/catalog';
import { useState } from 'react';
import { useOperatorChange, useOperatorRead } from '../api/use-operator-function';
import { useSession } from '../auth/session-context';
import { ApprovalActions } from '../components/approval-actions';
import { ChangeButton } from '../components/change-button';
import { ConfirmButton } from '../components/confirm-button';
import { ErrorNotice } from '../components/error-notice';
import { formFields } from '../components/form-fields';
import { QueryResult } from '../components/query-result';
import { ShownOnceDialog } from '../components/shown-once-dialog';
import { Instant } from '../format/instant';

interface IssuedLink {
  email: string;
  url: string;
}

interface Outcomes {
  /** A link to show once. */
  onLink: (link: IssuedLink) => void;
  /** A request that now waits for another admin. */
  onRequest: (request: AdminRequestView) => void;
}

function roleOf(value: string): Role {
  return value === 'admin' || value === 'support' ? value : 'caller';
}

const kindNames = { create_admin: 'new admin', admin_link: 'sign-in link' } as const;

function show(outcome: SignInLinkOutcome, email: string, { onLink, onRequest }: Outcomes): void {
  if (outcome.state === 'created') onLink({ email, url: outcome.url });
  else onRequest(outcome.request);
}

function CreateUserForm(outcomes: Outcomes) {
  const create = useOperatorChange('create_user');
  const [role, setRole] = useState<Role>('caller');
  return (
    <form
      className="filters"
      aria-label="Create user"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const field = formFields(form);
        const email = field('email').trim();
        create.mutate(
          { email, role, ...(role === 'caller' ? { account: field('account').trim() } : {}) },
          {
            onSuccess: (outcome) => {
              form.reset();
              show(outcome, email, outcomes);
            },
          },
        );
      }}
    >
      <label className="wide">
        Email
        <input name="email" type="email" required autoComplete="off" />
      </label>
      <label>
        Role
        <select
          name="role"
          value={role}
          onChange={(event) => {
            setRole(roleOf(event.currentTarget.value));
          }}
        >
          <option value="caller">caller</option>
          <option value="support">support</option>
          <option value="admin">admin</option>
        </select>
      </label>
      {role === 'caller' && (
        <label>
          Account
          <input name="account" required autoComplete="off" />
        </label>
      )}
      <div className="actions">
        <ChangeButton type="submit" disabled={create.isPending}>
          Create user
        </ChangeButton>
      </div>
      <ErrorNotice error={create.error} />
    </form>
  );
}

function UsersTable({ users, outcomes }: { users: readonly ConsoleUserView[]; outcomes: Outcomes }) {
  const { user: me } = useSession();
  const newLink = useOperatorChange('user_link');
  const disable = useOperatorChange('disable_user');
  const enable = useOperatorChange('enable_user');
  if (users.length === 0) return <p className="empty">No users.</p>;
  return (
    <>
      <ErrorNotice error={newLink.error ?? disable.error ?? enable.error} />
      <table data-testid="users-table">
        <thead>
          <tr>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Account</th>
            <th scope="col">Password</th>
            <th scope="col">Created</th>
            <th scope="col">State</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {users.map((user) => (
            <tr key={user.id} data-testid="user-row">
              <td>{user.email}</td>
              <td>{user.role}</td>
              <td className="code">{user.account}</td>
              <td>{user.has_password ? 'set' : 'not set yet'}</td>
              <td className="nowrap">
                <Instant iso={user.created} />
              </td>
              <td>
                {user.disabled === '' ? (
                  <span className="badge badge-active">enabled</span>
                ) : (
                  <span className="badge badge-closed">disabled</span>
                )}
              </td>
              <td className="row-actions">
                {user.disabled === '' ? (
                  <>
                    <ChangeButton
                      className="small"
                      disabled={newLink.isPending}
                      onClick={() => {
                        newLink.mutate(
                          { email: user.email },
                          {
                            onSuccess: (outcome) => {
                              show(outcome, user.email, outcomes);
                            },
                          },
                        );
                      }}
                    >
                      New link
                    </ChangeButton>
                    <ConfirmButton
                      className="small danger"
                      disabled={disable.isPending || user.email === me.email}
                      question={`Disable ${user.email}? Their sessions and links end at once.`}
                      onConfirm={() => {
                        disable.mutate({ email: user.email });
                      }}
                    >
                      Disable
                    </ConfirmButton>
                  </>
                ) : (
                  <ChangeButton
                    className="small"
                    disabled={enable.isPending}
                    onClick={() => {
                      enable.mutate({ email: user.email });
                    }}
                  >
                    Enable
                  </ChangeButton>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function AdminRequestsTable({
  requests,
  onLink,
}: {
  requests: readonly AdminRequestView[];
  onLink: (link: IssuedLink) => void;
}) {
  const approve = useOperatorChange('approve_admin_request');
  const reject = useOperatorChange('reject_admin_request');
  if (requests.length === 0) return <p className="empty">Nothing waits for a second admin.</p>;
  return (
    <>
      <ErrorNotice error={approve.error ?? reject.error} />
      <table data-testid="admin-requests-table">
        <thead>
          <tr>
            <th scope="col">Requested</th>
            <th scope="col">For</th>
            <th scope="col">Email</th>
            <th scope="col">Requested by</th>
            <th scope="col">State</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((request) => (
            <tr key={request.id} data-testid="admin-request-row">
              <td className="nowrap">
                <Instant iso={request.requested} />
              </td>
              <td>{kindNames[request.kind]}</td>
              <td>{request.email}</td>
              <td>{request.requested_by}</td>
              <td>
                <span className={`badge badge-${request.state}`}>{request.state.replaceAll('_', ' ')}</span>
              </td>
              <td className="row-actions">
                <ApprovalActions
                  request={request}
                  rejectQuestion={`Reject the ${kindNames[request.kind]} for ${request.email}?`}
                  busy={approve.isPending || reject.isPending}
                  onApprove={() => {
                    approve.mutate(
                      { request_id: request.id },
                      {
                        onSuccess: ({ url }) => {
                          onLink({ email: request.email, url });
                        },
                      },
                    );
                  }}
                  onReject={() => {
                    reject.mutate({ request_id: request.id });
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function UsersScreen() {
  const users = useOperatorRead('list_users', {});
  const requests = useOperatorRead('list_admin_requests', {});
  const [link, setLink] = useState<IssuedLink | undefined>(undefined);
  const [waiting, setWaiting] = useState<AdminRequestView | undefined>(undefined);
  const outcomes: Outcomes = {
    onLink: (issued) => {
      setWaiting(undefined);
      setLink(issued);
    },
    onRequest: setWaiting,
  };

  return (
    <>
      <h1>Users</h1>
      {waiting !== undefined && (
        <p className="notice notice-success" role="status" data-testid="admin-request-outcome">
          The {kindNames[waiting.kind]} for {waiting.email} waits for another admin’s approval (request{' '}
          {waiting.id}); the admin who approves it is shown the link.
        </p>
      )}
      <QueryResult query={users}>
        {({ users: list }) => <UsersTable users={list} outcomes={outcomes} />}
      </QueryResult>
      <section aria-labelledby="admin-requests-heading">
        <h2 id="admin-requests-heading">Waiting for a second admin</h2>
        <QueryResult query={requests}>
          {({ requests: list }) => <AdminRequestsTable requests={list} onLink={outcomes.onLink} />}
        </QueryResult>
      </section>
      <section aria-labelledby="create-user-heading">
        <h2 id="create-user-heading">Create a user</h2>
        <CreateUserForm {...outcomes} />
      </section>
      {link !== undefined && (
        <ShownOnceDialog
          title="One-time sign-in link"
          value={link.url}
          explanation={`Send this link to ${link.email}. It works once, for 15 minutes, and lets them set a password.`}
          onClose={() => {
            setLink(undefined);
          }}
        />
      )}
    </>
  );
}
