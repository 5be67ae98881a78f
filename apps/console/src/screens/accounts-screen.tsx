// Operators' list of accounts, newest first with when each was made and both channels' balances: find
// one by id, mobile, email or name, open its screens, create one, and suspend, resume or close it.

import { Link } from '@tanstack/react-router';
import { filledIn } from '../api/filter-values';
import type { AccountStatus, AccountSummary, OperatorFunctions } from '@topup/operators/catalog';
import { useOperatorChange, useOperatorRead } from '../api/use-operator-function';
import { ChangeButton } from '../components/change-button';
import { ConfirmButton } from '../components/confirm-button';
import { ErrorNotice } from '../components/error-notice';
import { formFields } from '../components/form-fields';
import { FilterForm } from '../components/filter-form';
import { useFilteredPages } from '../components/filtered-pages';
import { Pager } from '../components/pager';
import { QueryResult } from '../components/query-result';
import { Instant } from '../format/instant';
import { formatMoney } from '../format/money';
import { accountPath } from '../routes/paths';

type AccountProfile = OperatorFunctions['create_account']['request'];

/** The status changes an account in `status` can take, with the button that asks for each. */
const statusChanges: Record<AccountStatus, { to: AccountStatus; label: string }[]> = {
  active: [
    { to: 'suspended', label: 'Suspend' },
    { to: 'closed', label: 'Close' },
  ],
  suspended: [
    { to: 'active', label: 'Resume' },
    { to: 'closed', label: 'Close' },
  ],
  closed: [],
};

function AccountsTable({ accounts }: { accounts: readonly AccountSummary[] }) {
  const setStatus = useOperatorChange('set_account_status');
  if (accounts.length === 0) return <p className="empty">No accounts match.</p>;
  return (
    <>
      <ErrorNotice error={setStatus.error} />
      <table data-testid="accounts-table">
        <thead>
          <tr>
            <th scope="col">Account</th>
            <th scope="col">Name</th>
            <th scope="col">Created</th>
            <th scope="col" className="number">
              Agent Float
            </th>
            <th scope="col" className="number">
              Airtime
            </th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {accounts.map((account) => (
            <tr key={account.id} data-testid="account-row">
              <td>
                <Link to={accountPath(account.id, 'overview')} className="code">
                  {account.id}
                </Link>
              </td>
              <td>{account.name}</td>
              <td className="nowrap">
                <Instant iso={account.created} />
              </td>
              <td className="number nowrap" data-testid="float-balance">
                KES {formatMoney(account.float_available)}
              </td>
              <td className="number nowrap" data-testid="airtime-balance">
                KES {formatMoney(account.airtime_available)}
              </td>
              <td>
                <span className={`badge badge-${account.status}`}>{account.status}</span>
              </td>
              <td className="row-actions">
                <Link to={accountPath(account.id, 'tokens')} className="button small secondary">
                  Tokens
                </Link>
                <Link to={accountPath(account.id, 'fund')} className="button small secondary">
                  Fund
                </Link>
                {statusChanges[account.status].map(({ to, label }) => (
                  <ConfirmButton
                    key={to}
                    className={to === 'closed' ? 'small danger' : 'small'}
                    disabled={setStatus.isPending}
                    question={
                      to === 'closed'
                        ? `Close account ${account.id} (${account.name}) for good?`
                        : `${label} account ${account.id} (${account.name})?`
                    }
                    onConfirm={() => {
                      setStatus.mutate({ account: account.id, status: to });
                    }}
                  >
                    {label}
                  </ConfirmButton>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

function CreateAccountForm() {
  const create = useOperatorChange('create_account');
  return (
    <form
      className="filters"
      aria-label="Create account"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const field = formFields(form);
        const profile: AccountProfile = {
          name: field('name').trim(),
          ...filledIn({
            mobile: field('mobile'),
            email: field('email'),
            agent_name: field('agent_name'),
            agent_number: field('agent_number'),
            store_number: field('store_number'),
          }),
        };
        create.mutate(profile, {
          onSuccess: () => {
            form.reset();
          },
        });
      }}
    >
      <label>
        Name
        <input name="name" required />
      </label>
      <label>
        Mobile
        <input name="mobile" inputMode="numeric" />
      </label>
      <label>
        Email
        <input name="email" type="email" />
      </label>
      <label>
        Agent name
        <input name="agent_name" />
      </label>
      <label>
        Agent number
        <input name="agent_number" inputMode="numeric" />
      </label>
      <label>
        Store number
        <input name="store_number" inputMode="numeric" />
      </label>
      <div className="actions">
        <ChangeButton type="submit" disabled={create.isPending}>
          Create account
        </ChangeButton>
      </div>
      {create.isSuccess && (
        <p className="notice notice-success" role="status" data-testid="created-account">
          Created account{' '}
          <Link to={accountPath(create.data.account.id, 'overview')} className="code">
            {create.data.account.id}
          </Link>{' '}
          ({create.data.account.name}).
        </p>
      )}
      <ErrorNotice error={create.error} />
    </form>
  );
}

export function AccountsScreen() {
  const filtered = useFilteredPages<{ query?: string }>({});
  const accounts = useOperatorRead('list_accounts', filtered.request, { keepPrevious: true });

  return (
    <>
      <h1>Accounts</h1>
      <FilterForm
        label="Search accounts"
        role="search"
        listing={filtered}
        read={(field) => filledIn({ query: field('query') })}
        submitText="Search"
        clearable={false}
      >
        <label className="wide">
          Search accounts
          <input name="query" type="search" placeholder="Account id or name" />
        </label>
      </FilterForm>
      <QueryResult query={accounts}>
        {({ accounts: found, next_cursor }) => (
          <>
            <AccountsTable accounts={found} />
            <Pager pages={filtered.pages} nextCursor={next_cursor} label="Account pages" />
          </>
        )}
      </QueryResult>
      <section aria-labelledby="create-account-heading">
        <h2 id="create-account-heading">Create an account</h2>
        <CreateAccountForm />
      </section>
    </>
  );
}
