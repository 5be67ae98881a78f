// The console's paths, relative to /console: which belong to one account, which to operators, which need
// no session, and how an account screen's path is written for a caller and for an operator.

/** Paths that need no session: the one-time link page. */
export const publicPaths = ['/link'];

/** The screens of one account, at the root for a caller and under /accounts/<id>/ for an operator. */
export const accountScreens = ['overview', 'transactions', 'statement', 'endpoints', 'deliveries'] as const;

export type AccountScreen = (typeof accountScreens)[number];

export const operatorPaths = ['/accounts', '/funding', '/ledger', '/delivery-monitor', '/users', '/audit'];

/**
 * An account screen's path: `/transactions` for a caller, `/accounts/<id>/transactions` for an operator.
 * `rest` goes after the screen, e.g. a transaction's reference.
 */
export function accountPath(
  accountId: string | undefined,
  screen: AccountScreen | 'tokens' | 'fund',
  rest = '',
): string {
  const tail = rest === '' ? '' : `/${encodeURIComponent(rest)}`;
  const root = accountId === undefined ? '' : `/accounts/${encodeURIComponent(accountId)}`;
  return `${root}/${screen}${tail}`;
}
