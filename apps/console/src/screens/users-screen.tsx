// Console users: who may sign in with which role, creating one and giving anyone a new one-time sign-in
// link (a forgotten password). A link is shown once; it is how the user sets a password.

import { useState } from 'react';
import type { Role } from '../api/session-api';
import { useOperatorChange, useOperatorRead } from '../api/use-operator-function';
import { ChangeButton } from '../components/change-button';
import { ErrorNotice } from '../components/error-notice';
import { formFields } from '../components/form-fields';
import { QueryResult } from '../components/query-result';
import { ShownOnceDialog } from '../components/shown-once-dialog';
import { formatInstant } from '../format/time';

interface IssuedLink {
  email: string;
  url: string;
}

function roleOf(value: string): Role {
  return value === 'admin' || value === 'support' ? value : 'caller';
}

function CreateUserForm({ onLink }: { onLink: (link: IssuedLink) => void }) {
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
            onSuccess: ({ url }) => {
              form.reset();
              onLink({ email, url });
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

export function UsersScreen() {
  const users = useOperatorRead('list_users', {});
  const newLink = useOperatorChange('user_link');
  const [link, setLink] = useState<IssuedLink | undefined>(undefined);

  return (
    <>
      <h1>Users</h1>
      <ErrorNotice error={newLink.error} />
      <QueryResult query={users}>
        {({ users: list }) =>
          list.length === 0 ? (
            <p className="empty">No users.</p>
          ) : (
            <table data-testid="users-table">
              <thead>
                <tr>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Account</th>
                  <th scope="col">Password</th>
                  <th scope="col">Created</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.map((user) => (
                  <tr key={user.id} data-testid="user-row">
                    <td>{user.email}</td>
                    <td>{user.role}</td>
                    <td className="code">{user.account}</td>
                    <td>{user.has_password ? 'set' : 'not set yet'}</td>
                    <td className="nowrap">{formatInstant(user.created)}</td>
                    <td>
                      <ChangeButton
                        className="small"
                        disabled={newLink.isPending}
                        onClick={() => {
                          newLink.mutate(
                            { email: user.email },
                            {
                              onSuccess: ({ url }) => {
                                setLink({ email: user.email, url });
                              },
                            },
                          );
                        }}
                      >
                        New link
                      </ChangeButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryResult>
      <section aria-labelledby="create-user-heading">
        <h2 id="create-user-heading">Create a user</h2>
        <CreateUserForm onLink={setLink} />
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
