// A channel's statement: every posting with the balance before and after it, like a bank statement,
// paged by cursor and exportable as CSV.

import type { ChannelType, StatementPosting } from '@topup/envelope';
import type { StatementFilters } from '../api/caller-function-types';
import { wholeDays } from '../api/date-range';
import { statementCsvUrl } from '../api/export-links';
import { filledIn } from '../api/filter-values';
import { useCallerRead } from '../api/use-caller-function';
import { useScopedAccount } from '../auth/account-scope';
import { FilterForm } from '../components/filter-form';
import { DayRangeFilter } from '../components/filter-fields';
import { useFilteredPages } from '../components/filtered-pages';
import { Pager } from '../components/pager';
import { QueryResult } from '../components/query-result';
import { formatMoney } from '../format/money';

function filtersOf(field: (name: string) => string): StatementFilters {
  const channel: ChannelType = field('channel') === 'Airtime' ? 'Airtime' : 'Agent Float';
  return { channel, ...filledIn(wholeDays(field('from'), field('to'))) };
}

function StatementTable({ postings }: { postings: readonly StatementPosting[] }) {
  if (postings.length === 0) return <p className="empty">No postings.</p>;
  return (
    <table data-testid="statement-table">
      <thead>
        <tr>
          <th scope="col">Date</th>
          <th scope="col">Reference</th>
          <th scope="col">Purpose</th>
          <th scope="col" className="number">
            Amount
          </th>
          <th scope="col" className="number">
            Balance before
          </th>
          <th scope="col" className="number">
            Balance after
          </th>
        </tr>
      </thead>
      <tbody>
        {postings.map((posting) => (
          <tr key={posting.id}>
            <td className="nowrap">{posting.date}</td>
            <td className="code">{posting.reference}</td>
            <td>{posting.purpose.replaceAll('_', ' ')}</td>
            <td className="number">{formatMoney(posting.amount)}</td>
            <td className="number">{formatMoney(posting.balance_before)}</td>
            <td className="number">{formatMoney(posting.balance_after)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function StatementScreen() {
  const accountId = useScopedAccount();
  const filtered = useFilteredPages<StatementFilters>({ channel: 'Agent Float' });
  const statement = useCallerRead('list_statement', filtered.request, { keepPrevious: true });

  return (
    <>
      <h1>Statement</h1>
      <FilterForm
        label="Statement filters"
        listing={filtered}
        read={filtersOf}
        submitText="Show statement"
        clearable={false}
        actions={
          <a className="button secondary" href={statementCsvUrl(filtered.filters, accountId)} download>
            Export CSV
          </a>
        }
      >
        <label>
          Channel
          <select name="channel" defaultValue="Agent Float">
            <option value="Agent Float">Agent Float</option>
            <option value="Airtime">Airtime</option>
          </select>
        </label>
        <DayRangeFilter />
      </FilterForm>
      <QueryResult query={statement}>
        {({ data }) => (
          <>
            <p className="lead" data-testid="statement-balance">
              {data.channel.type} balance: {data.channel.currency} {formatMoney(data.channel.balance)}
            </p>
            <StatementTable postings={data.postings} />
            <Pager pages={filtered.pages} nextCursor={data.next_cursor} label="Statement pages" />
          </>
        )}
      </QueryResult>
    </>
  );
}
