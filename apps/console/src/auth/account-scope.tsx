// Which account the account screens show: the caller's own (no id: the server takes it from the session)
// or, for an operator, the account in the URL (/accounts/<id>/…), sent as X-Topup-Account.

import { createContext, useContext, type ReactNode } from 'react';

const AccountScope = createContext<string | undefined>(undefined);

export function AccountScopeProvider({ accountId, children }: { accountId: string; children: ReactNode }) {
  return <AccountScope value={accountId}>{children}</AccountScope>;
}

/** The account an operator is looking at; undefined on a caller's own screens. */
export function useScopedAccount(): string | undefined {
  return useContext(AccountScope);
}
