// The left navigation: a caller's account screens, or the operator screens plus, while an operator looks
// at an account, that account's screens. The link of the screen shown is marked by the router with
// aria-current="page".

import { Link, useParams } from '@tanstack/react-router';
import type { Role } from '../api/session-api';
import { isOperator } from '../auth/access';
import { accountPath, type AccountScreen } from '../routes/paths';

const accountScreenNames: Record<AccountScreen, string> = {
  overview: 'Overview',
  transactions: 'Transactions',
  statement: 'Statement',
  endpoints: 'Endpoints',
  deliveries: 'Deliveries',
};

const operatorScreens = [
  { to: '/accounts', name: 'Accounts' },
  { to: '/funding', name: 'Funding' },
  { to: '/ledger', name: 'Ledger health' },
  { to: '/delivery-monitor', name: 'Delivery monitor' },
  { to: '/users', name: 'Users' },
  { to: '/audit', name: 'Audit log' },
] as const;

function AccountLinks({ accountId }: { accountId: string | undefined }) {
  return (
    <ul>
      {Object.entries(accountScreenNames).map(([screen, name]) => (
        <li key={screen}>
          <Link to={accountPath(accountId, screen as AccountScreen)}>{name}</Link>
        </li>
      ))}
      {accountId !== undefined && (
        <>
          <li>
            <Link to={accountPath(accountId, 'tokens')}>Tokens</Link>
          </li>
          <li>
            <Link to={accountPath(accountId, 'fund')}>Fund</Link>
          </li>
        </>
      )}
    </ul>
  );
}

export function SideNav({ role }: { role: Role }) {
  const { accountId } = useParams({ strict: false });
  if (!isOperator(role)) {
    return (
      <nav className="side-nav" aria-label="Screens">
        <AccountLinks accountId={undefined} />
      </nav>
    );
  }
  return (
    <nav className="side-nav" aria-label="Screens">
      <ul>
        {operatorScreens.map(({ to, name }) => (
          <li key={to}>
            <Link to={to}>{name}</Link>
          </li>
        ))}
      </ul>
      {accountId !== undefined && (
        <section aria-labelledby="account-nav-heading">
          <h2 id="account-nav-heading" className="nav-heading">
            Account <span className="code">{accountId}</span>
          </h2>
          <AccountLinks accountId={accountId} />
        </section>
      )}
    </nav>
  );
}
