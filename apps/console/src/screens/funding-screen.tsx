// Adding money to an account's channel. Small amounts apply at once; above the server's threshold the
// funding waits for a second admin (maker-checker), so the same screen lists the requests waiting and
// lets another admin approve or reject them. An account's own Fund screen (under /accounts/<id>/) takes
// the account from the page and keeps the account's menu beside it.

import type { FundingOutcome, FundingRequestView } from '@topup/operators/catalog';
import { useOperatorChange, useOperatorRead } from '../api/use-operator-function';
import { useScopedAccount } from '../auth/account-scope';
import { ApprovalActions } from '../components/approval-actions';
import { ChangeButton } from '../components/change-button';
import { ErrorNotice } from '../components/error-notice';
import { formFields } from '../components/form-fields';
import { QueryResult } from '../components/query-result';
import { formatMoney } from '../format/money';
import { Instant } from '../format/instant';

const channelNames = { float: 'Agent Float', airtime: 'Airtime' } as const;

function outcomeText(outcome: FundingOutcome): string {
  if (outcome.state === 'applied')
    return `Funding applied: ${channelNames[outcome.channel]} now has KES ${formatMoney(outcome.available)} available.`;
  return `Funding is awaiting approval by another admin (request ${outcome.request.id}).`;
}

/** The funding form; on an account's own screen, `account` is that account and is not asked for. */
function FundForm({ account }: { account: string | undefined }) {
  const fund = useOperatorChange('fund_channel');
  return (
    <form
      className="filters"
      aria-label="Fund a channel"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const field = formFields(form);
        fund.mutate(
          {
            account: account ?? field('account').trim(),
            channel: field('channel') === 'airtime' ? 'airtime' : 'float',
            amount: field('amount').trim(),
          },
          {
            onSuccess: () => {
              form.reset();
            },
          },
        );
      }}
    >
      {account === undefined && (
        <label>
          Account
          <input name="account" required autoComplete="off" />
        </label>
      )}
      <label>
        Channel
        <select name="channel" defaultValue="float">
          <option value="float">Agent Float</option>
          <option value="airtime">Airtime</option>
        </select>
      </label>
      <label>
        Amount (KES, whole shillings)
        <input name="amount" required inputMode="numeric" pattern="[0-9]+" />
      </label>
      <div className="actions">
        <ChangeButton type="submit" disabled={fund.isPending}>
          Fund
        </ChangeButton>
      </div>
      {fund.isSuccess && (
        <p className="notice notice-success" role="status" data-testid="funding-outcome">
          {outcomeText(fund.data)}
        </p>
      )}
      <ErrorNotice error={fund.error} />
    </form>
  );
}

function FundingRequestsTable({ requests }: { requests: readonly FundingRequestView[] }) {
  const approve = useOperatorChange('approve_funding');
  const reject = useOperatorChange('reject_funding');
  if (requests.length === 0) return <p className="empty">No funding requests.</p>;
  return (
    <>
      <ErrorNotice error={approve.error ?? reject.error} />
      <table data-testid="funding-requests-table">
        <thead>
          <tr>
            <th scope="col">Requested</th>
            <th scope="col">Account</th>
            <th scope="col">Channel</th>
            <th scope="col" className="number">
              Amount
            </th>
            <th scope="col">Requested by</th>
            <th scope="col">State</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {requests.map((request) => (
            <tr key={request.id} data-testid="funding-request-row">
              <td className="nowrap">
                <Instant iso={request.requested} />
              </td>
              <td className="code">{request.account}</td>
              <td>{channelNames[request.channel]}</td>
              <td className="number">KES {formatMoney(request.amount)}</td>
              <td>{request.requested_by}</td>
              <td>
                <span className={`badge badge-${request.state}`}>{request.state.replaceAll('_', ' ')}</span>
              </td>
              <td className="row-actions">
                <ApprovalActions
                  request={request}
                  rejectQuestion={`Reject funding of KES ${formatMoney(request.amount)} to ${request.account}?`}
                  busy={approve.isPending || reject.isPending}
                  onApprove={() => {
                    approve.mutate({ request_id: request.id });
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

/** Funding for every account, or (under /accounts/<id>/fund) for the account on the page. */
export function FundingScreen() {
  const account = useScopedAccount();
  const requests = useOperatorRead('list_funding_requests', {});
  return (
    <>
      <h1>{account === undefined ? 'Funding' : 'Fund'}</h1>
      {account !== undefined && <p className="muted">Account {account}</p>}
      <section aria-labelledby="fund-heading">
        <h2 id="fund-heading">Fund a channel</h2>
        <FundForm account={account} />
      </section>
      <section aria-labelledby="requests-heading">
        <h2 id="requests-heading">Funding requests</h2>
        <QueryResult query={requests}>
          {({ requests: list }) => (
            <FundingRequestsTable
              requests={account === undefined ? list : list.filter((request) => request.account === account)}
            />
          )}
        </QueryResult>
      </section>
    </>
  );
}
