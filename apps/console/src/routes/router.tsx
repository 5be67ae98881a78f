// The console's routes under /console, in code: the one-time link page is open to anyone; every other
// route sits behind the sign-in gate of the root. An account's screens exist twice: at the root for a
// caller, and under /accounts/$accountId for an operator, with the same screen components.

import {
  createRootRoute,
  createRoute,
  createRouter,
  Navigate,
  Outlet,
  useLocation,
  useRouterState,
} from '@tanstack/react-router';
import type { JSX } from 'react';
import { isPublicPath, redirectFor } from '../auth/access';
import { AccountScopeProvider } from '../auth/account-scope';
import { useSessionState } from '../auth/session-context';
import { AppShell } from '../components/app-shell';
import { AccountsScreen } from '../screens/accounts-screen';
import { AuditLogScreen } from '../screens/audit-log-screen';
import { DeliveriesScreen } from '../screens/deliveries-screen';
import { DeliveryMonitorScreen } from '../screens/delivery-monitor-screen';
import { EndpointsScreen } from '../screens/endpoints-screen';
import { FundingScreen } from '../screens/funding-screen';
import { LedgerHealthScreen } from '../screens/ledger-health-screen';
import { LinkScreen } from '../screens/link-screen';
import { NotFoundScreen } from '../screens/not-found-screen';
import { OverviewScreen } from '../screens/overview-screen';
import { SignInScreen } from '../screens/sign-in-screen';
import { StatementScreen } from '../screens/statement-screen';
import { TokensScreen } from '../screens/tokens-screen';
import { TransactionDetailScreen } from '../screens/transaction-detail-screen';
import { TransactionsScreen } from '../screens/transactions-screen';
import { UsersScreen } from '../screens/users-screen';

function SignInGate() {
  const { pathname } = useLocation();
  // Decided by the routes the Outlet renders, not by the location: while a navigation loads, the
  // location is already the next one but the Outlet still shows the previous route, which may need a
  // session that no longer exists.
  const onPublicRoute = useRouterState({
    select: (router) => router.matches.some((match) => isPublicPath(match.routeId)),
  });
  const state = useSessionState();
  if (onPublicRoute) return <Outlet />;
  if (state.status === 'loading') return <p role="status">Loading…</p>;
  if (state.status === 'signed-out') return <SignInScreen notice={state.notice} />;
  // The start page, /console/, has no screen of its own: this sends it to the role's home.
  const redirect = redirectFor(state.session.user.role, pathname);
  if (redirect !== undefined) return <Navigate to={redirect} replace />;
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

function AccountLayout() {
  const { accountId } = accountRoute.useParams();
  // Keyed by account, so nothing of one account's screens (paging, filters, answers) carries to another.
  return (
    <AccountScopeProvider key={accountId} accountId={accountId}>
      <Outlet />
    </AccountScopeProvider>
  );
}

function AccountHome() {
  const { accountId } = accountRoute.useParams();
  return <Navigate to="/accounts/$accountId/overview" params={{ accountId }} replace />;
}

const rootRoute = createRootRoute({ component: SignInGate, notFoundComponent: NotFoundScreen });

// Generic in the path, so the route tree keeps each literal path and links are checked against it.
const route = <P extends string>(path: P, component: () => JSX.Element) =>
  createRoute({ getParentRoute: () => rootRoute, path, component });

const accountRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'accounts/$accountId',
  component: AccountLayout,
});

const inAccount = <P extends string>(path: P, component: () => JSX.Element) =>
  createRoute({ getParentRoute: () => accountRoute, path, component });

const routeTree = rootRoute.addChildren([
  route('link', LinkScreen),
  route('overview', OverviewScreen),
  route('transactions', TransactionsScreen),
  route('transactions/$reference', TransactionDetailScreen),
  route('statement', StatementScreen),
  route('endpoints', EndpointsScreen),
  route('deliveries', DeliveriesScreen),
  route('accounts', AccountsScreen),
  accountRoute.addChildren([
    inAccount('/', AccountHome),
    inAccount('overview', OverviewScreen),
    inAccount('transactions', TransactionsScreen),
    inAccount('transactions/$reference', TransactionDetailScreen),
    inAccount('statement', StatementScreen),
    inAccount('endpoints', EndpointsScreen),
    inAccount('deliveries', DeliveriesScreen),
    inAccount('tokens', TokensScreen),
    inAccount('fund', FundingScreen),
  ]),
  route('funding', FundingScreen),
  route('ledger', LedgerHealthScreen),
  route('delivery-monitor', DeliveryMonitorScreen),
  route('users', UsersScreen),
  route('audit', AuditLogScreen),
]);

export const router = createRouter({ routeTree, basepath: '/console' });

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
