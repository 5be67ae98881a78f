// Every operator change, newest first: who did what to which target and when, with the state before
// and after, filterable by who and by action.

import { filledIn } from '../api/filter-values';
import { useOperatorRead } from '../api/use-operator-function';
import { FilterForm } from '../components/filter-form';
import { useFilteredPages } from '../components/filtered-pages';
import { Pager } from '../components/pager';
import { QueryResult } from '../components/query-result';
import { Instant } from '../format/instant';

function JsonValue({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">–</span>;
  return <pre className="json">{JSON.stringify(value, null, 2)}</pre>;
}

export function AuditLogScreen() {
  const filtered = useFilteredPages<{ actor?: string; action?: string }>({});
  const audit = useOperatorRead('list_audit', filtered.request, { keepPrevious: true });

  return (
    <>
      <h1>Audit log</h1>
      <FilterForm
        label="Audit filters"
        listing={filtered}
        read={(field) => filledIn({ actor: field('actor'), action: field('action') })}
      >
        <label>
          Who
          <input name="actor" autoComplete="off" />
        </label>
        <label>
          Action
          <input name="action" autoComplete="off" />
        </label>
      </FilterForm>
      <QueryResult query={audit}>
        {({ records, next_cursor }) => (
          <>
            {records.length === 0 ? (
              <p className="empty">No audit records.</p>
            ) : (
              <table data-testid="audit-table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">Action</th>
                    <th scope="col">Target</th>
                    <th scope="col">Before</th>
                    <th scope="col">After</th>
                  </tr>
                </thead>
                <tbody>
                  {records.map((record) => (
                    <tr key={record.id} data-testid="audit-row">
                      <td className="nowrap">
                        <Instant iso={record.at} />
                      </td>
                      <td>{record.actor}</td>
                      <td className="code">{record.action}</td>
                      <td className="code">{record.target}</td>
                      <td>
                        <JsonValue value={record.before} />
                      </td>
                      <td>
                        <JsonValue value={record.after} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            <Pager pages={filtered.pages} nextCursor={next_cursor} label="Audit pages" />
          </>
        )}
      </QueryResult>
    </>
  );
}
