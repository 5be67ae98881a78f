// An account's transactions: filtered on the server, paged by cursor, exportable as CSV with the same
// filters. The filters cover what a "top-up not received" investigation starts from: a reference, the
// caller's idempotency key, the customer's mobile number, a date range.

import type { TransactionState, TransactionType } from '@topup/envelope';
import { useState } from 'react';
import type { TransactionFilters } from '../api/caller-function-types';
import { wholeDays } from '../api/date-range';
import { transactionsCsvUrl } from '../api/export-links';
import { filledIn } from '../api/filter-values';
import { useCallerRead } from '../api/use-caller-function';
import { useScopedAccount } from '../auth/account-scope';
import { formFields } from '../components/form-fields';
import { Pager, useCursorPages } from '../components/pager';
import { QueryResult } from '../components/query-result';
import { TransactionsTable } from '../components/transactions-table';

function filtersOf(form: HTMLFormElement): TransactionFilters {
  const field = formFields(form);
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
  const [filters, setFilters] = useState<TransactionFilters>({});
  const pages = useCursorPages();
  const listing = useCallerRead(
    'list_transactions',
    { ...filters, ...(pages.cursor === undefined ? {} : { cursor: pages.cursor }) },
    { keepPrevious: true },
  );

  return (
    <>
      <h1>Transactions</h1>
      <form
        className="filters"
        aria-label="Transaction filters"
        onSubmit={(event) => {
          event.preventDefault();
          setFilters(filtersOf(event.currentTarget));
          pages.first();
        }}
        onReset={() => {
          setFilters({});
          pages.first();
        }}
      >
        <label>
          Type
          <select name="type" defaultValue="">
            <option value="">Any</option>
            <option value="Agent Float">Agent Float</option>
            <option value="Airtime">Airtime</option>
          </select>
        </label>
        <label>
          State
          <select name="state" defaultValue="">
            <option value="">Any</option>
            <option value="requested">requested</option>
            <option value="completed">completed</option>
            <option value="cancelled">cancelled</option>
          </select>
        </label>
        <label>
          From
          <input name="from" type="date" />
        </label>
        <label>
          To
          <input name="to" type="date" />
        </label>
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
        <div className="actions">
          <button type="submit">Apply filters</button>
          <button type="reset" className="secondary">
            Clear filters
          </button>
          <a className="button secondary" href={transactionsCsvUrl(filters, accountId)} download>
            Export CSV
          </a>
        </div>
      </form>
      <QueryResult query={listing}>
        {({ data }) => (
          <>
            <TransactionsTable
              transactions={data.transactions}
              accountId={accountId}
              testId="transactions-table"
            />
            <Pager pages={pages} nextCursor={data.next_cursor} label="Transaction pages" />
          </>
        )}
      </QueryResult>
    </>
  );
}
