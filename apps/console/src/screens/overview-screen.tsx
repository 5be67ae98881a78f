// An account at a glance: both balances (with, for an operator, a way to fund them), the latest
// transactions and the callbacks that failed.

import { Link } from '@tanstack/react-router';
import { useCallerRead } from '../api/use-caller-function';
import { useScopedAccount } from '../auth/account-scope';
import { DeliveriesTable } from '../components/deliveries-table';
import { QueryResult } from '../components/query-result';
import { TransactionsTable } from '../components/transactions-table';
import { formatMoney } from '../format/money';
import { accountPath } from '../routes/paths';

const recentCount = 10;

export function OverviewScreen() {
  const accountId = useScopedAccount();
  const balance = useCallerRead('get_balance', {});
  const recent = useCallerRead('list_transactions', { limit: recentCount });
  const failing = useCallerRead('list_callback_deliveries', { status: 'failed' });

  return (
    <>
      <h1>Overview</h1>
      <section aria-labelledby="balances-heading">
        <div className="heading-row">
          <h2 id="balances-heading">Balances</h2>
          {accountId !== undefined && (
            <Link to={accountPath(accountId, 'fund')} className="button small">
              Fund
            </Link>
          )}
        </div>
        <QueryResult query={balance}>
          {({ data }) => (
            <div className="balances">
              {data.channels.map((channel) => (
                <div className="balance" key={channel.type} data-testid="balance">
                  <span className="balance-label">{channel.type}</span>
                  <span className="balance-amount">
                    {channel.currency} {formatMoney(channel.balance)}
                  </span>
                </div>
              ))}
            </div>
          )}
        </QueryResult>
      </section>
      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading">Recent transactions</h2>
        <QueryResult query={recent}>
          {({ data }) => (
            <TransactionsTable
              transactions={data.transactions}
              accountId={accountId}
              testId="recent-transactions-table"
            />
          )}
        </QueryResult>
      </section>
      <section aria-labelledby="failing-heading">
        <h2 id="failing-heading">Failing deliveries</h2>
        <QueryResult query={failing}>
          {({ data }) => (
            <DeliveriesTable
              deliveries={data.deliveries}
              accountId={accountId}
              testId="failing-deliveries-table"
            />
          )}
        </QueryResult>
      </section>
    </>
  );
}
