// Addresses of the CSV exports: the listing's filters as query parameters, plus `account` when an
// operator exports another account's rows. The browser downloads them with the session cookie.

import type { StatementFilters, TransactionFilters } from './caller-function-types';
import { queryString } from './filter-values';

function withAccount<T extends object>(filters: T, accountId: string | undefined): T {
  return accountId === undefined ? filters : { ...filters, account: accountId };
}

export function transactionsCsvUrl(filters: TransactionFilters, accountId?: string): string {
  return `/console/api/export/transactions.csv${queryString(withAccount(filters, accountId))}`;
}

export function statementCsvUrl(filters: StatementFilters, accountId?: string): string {
  return `/console/api/export/statement.csv${queryString(withAccount(filters, accountId))}`;
}
