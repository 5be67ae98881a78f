// An account's transactions: filtered on the server, paged by cursor, exportable as CSV with the same
// filters. The filters cover what a "top-up not received" investigation starts from: a reference, the
// caller's idempotency key, the customer's mobile number, a date range.

import type { TransactionState, TransactionType } from '@topup/envelope';
import type { TransactionFilters } from '../api/caller-function-types';
import { wholeDays } from '../api/date-range';
import { transactionsCsvUrl } from '../api/export-links';
import { filledIn } from '../api/filter-values';
import { useCallerRead } from '../api/use-caller-function';
import { useScopedAccount } from '../auth/account-scope';
import { FilterForm } from '../components/filter-form';
import { ChoiceFilter, DayRangeFilter } from '../components/filter-fields';
import { useFilteredPages } from '../components/filtered-pages';
import { Pager } from '../components/pager';
import { QueryResult } from '../components/query-result';
import { TransactionsTable } from '../components/transactions-table';

function filtersOf(field: (name: string) => string): TransactionFilters {
  return filledIn({
    type: field('type') as TransactionType,
    state: field('state') as TransactionState,
    ...wholeDays(field('from'), field('to')),
    reference: field('reference'),
    idempotency_key: field('idempotency_key'),
    mobile: field('mobile'),
  });
}

export function TransactionsScreen() {
  const accountId = useScopedAccount();
  const filtered = useFilteredPages<TransactionFilters>({});
  const listing = useCallerRead('list_transactions', filtered.request, { keepPrevious: true });

  return (
    <>
      <h1>Transactions</h1>
      <FilterForm
        label="Transaction filters"
        listing={filtered}
        read={filtersOf}
        actions={
          <a className="button secondary" href={transactionsCsvUrl(filtered.filters, accountId)} download>
            Export CSV
          </a>
        }
      >
        <ChoiceFilter label="Type" name="type" choices={['Agent Float', 'Airtime']} />
        <ChoiceFilter label="State" name="state" choices={['requested', 'completed', 'cancelled']} />
        <DayRangeFilter />
        <label>
          Reference
          <input name="reference" autoComplete="off" />
        </label>
        <label>
          Idempotency key
          <input name="idempotency_key" autoComplete="off" />
        </label>
        <label>
          Mobile
          <input name="mobile" inputMode="numeric" autoComplete="off" />
        </label>
      </FilterForm>
      <QueryResult query={listing}>
        {({ data }) => (
          <>
            <TransactionsTable
              transactions={data.transactions}
              accountId={accountId}
              testId="transactions-table"
            />
            <Pager pages={filtered.pages} nextCursor={data.next_cursor} label="Transaction pages" />
          </>
        )}
      </QueryResult>
    </>
  );
}
