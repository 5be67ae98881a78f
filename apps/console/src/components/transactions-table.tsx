// Transactions as a table, each reference linking to its detail page.

import type { ListedTransaction } from '@topup/envelope';
import { Link } from '@tanstack/react-router';
import { formatMoney } from '../format/money';
import { accountPath } from '../routes/paths';

interface TransactionsTableProps {
  transactions: readonly ListedTransaction[];
  accountId: string | undefined;
  testId: string;
}

export function TransactionsTable({ transactions, accountId, testId }: TransactionsTableProps) {
  if (transactions.length === 0) return <p className="empty">No transactions.</p>;
  return (
    <table data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Reference</th>
          <th scope="col">Type</th>
          <th scope="col">State</th>
          <th scope="col" className="number">
            Amount
          </th>
          <th scope="col">Recipient</th>
          <th scope="col">Network</th>
          <th scope="col">Note</th>
        </tr>
      </thead>
      <tbody>
        {transactions.map(({ transaction, recipient }) => (
          <tr key={transaction.reference}>
            <td className="nowrap">{transaction.date}</td>
            <td>
              <Link to={accountPath(accountId, 'transactions', transaction.reference)} className="code">
                {transaction.reference}
              </Link>
            </td>
            <td>{transaction.type}</td>
            <td>
              <span className={`badge badge-${transaction.state}`}>{transaction.state}</span>
            </td>
            <td className="number">
              {transaction.currency} {formatMoney(transaction.amount)}
            </td>
            <td className="nowrap">{recipient.mobile}</td>
            <td>{transaction.network}</td>
            <td>{transaction.note}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
