// Whether the money adds up and what waits for a person: the ledger's invariants, provider results that
// arrived after their transaction was resolved the other way, and legs whose fate the provider never
// told, which an operator settles once the provider confirms it.

import type { LegView, UnappliedResult } from '@topup/operators/catalog';
import { useOperatorChange, useOperatorRead } from '../api/use-operator-function';
import { ConfirmButton } from '../components/confirm-button';
import { ErrorNotice } from '../components/error-notice';
import { QueryResult } from '../components/query-result';
import { Instant } from '../format/instant';

function LedgerVerification() {
  const report = useOperatorRead('verify_ledger', {});
  return (
    <section aria-labelledby="verify-heading">
      <div className="heading-row">
        <h2 id="verify-heading">Ledger invariants</h2>
        <button
          type="button"
          className="secondary"
          disabled={report.isFetching}
          onClick={() => {
            void report.refetch();
          }}
        >
          Verify again
        </button>
      </div>
      <QueryResult query={report}>
        {({ report: { ok, breaches, checked } }) => (
          <div data-testid="ledger-verification">
            {ok ? (
              <p className="notice notice-success">Every invariant holds.</p>
            ) : (
              <div className="notice notice-error" role="alert">
                <p>The ledger breaks its invariants:</p>
                <ul>
                  {breaches.map((breach) => (
                    <li key={breach}>{breach}</li>
                  ))}
                </ul>
              </div>
            )}
            <p className="muted">
              Checked {checked.ledgerAccounts} ledger accounts, {checked.transfers} transfers and{' '}
              {checked.transactions} transactions.
            </p>
          </div>
        )}
      </QueryResult>
    </section>
  );
}

function UnappliedResultsTable({ results }: { results: readonly UnappliedResult[] }) {
  if (results.length === 0) return <p className="empty">None.</p>;
  return (
    <table data-testid="unapplied-results-table">
      <thead>
        <tr>
          <th scope="col">Received</th>
          <th scope="col">Reference</th>
          <th scope="col">Provider said</th>
          <th scope="col">Transaction was</th>
          <th scope="col">Provider code</th>
          <th scope="col">Reason</th>
        </tr>
      </thead>
      <tbody>
        {results.map((result) => (
          <tr key={`${result.reference}-${result.received}`}>
            <td className="nowrap">
              <Instant iso={result.received} />
            </td>
            <td className="code">{result.reference}</td>
            <td>{result.asked}</td>
            <td>{result.state}</td>
            <td className="code">{result.provider_code}</td>
            <td>{result.reason}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function ReviewLegsTable({ legs }: { legs: readonly LegView[] }) {
  const resolve = useOperatorChange('resolve_leg');
  if (legs.length === 0) return <p className="empty">No legs wait for review.</p>;
  return (
    <>
      <ErrorNotice error={resolve.error} />
      <table data-testid="review-legs-table">
        <thead>
          <tr>
            <th scope="col">Leg</th>
            <th scope="col">Reference</th>
            <th scope="col">Kind</th>
            <th scope="col">Provider</th>
            <th scope="col">Provider reference</th>
            <th scope="col">Waiting since</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {legs.map((leg) => (
            <tr key={leg.id} data-testid="review-leg-row">
              <td className="code">{leg.id}</td>
              <td className="code">{leg.reference}</td>
              <td>{leg.kind}</td>
              <td>{leg.provider}</td>
              <td className="code">{leg.provider_reference}</td>
              <td className="nowrap">
                <Instant iso={leg.review_since ?? leg.updated} />
              </td>
              <td className="row-actions">
                <ConfirmButton
                  className="small"
                  disabled={resolve.isPending}
                  question={`Settle ${leg.id} as succeeded? Do this only once ${leg.provider} confirmed it.`}
                  onConfirm={() => {
                    resolve.mutate({ leg: leg.id, as: 'succeeded' });
                  }}
                >
                  Resolve as succeeded
                </ConfirmButton>
                <ConfirmButton
                  className="small danger"
                  disabled={resolve.isPending}
                  question={`Settle ${leg.id} as failed? Do this only once ${leg.provider} confirmed it.`}
                  onConfirm={() => {
                    resolve.mutate({ leg: leg.id, as: 'failed' });
                  }}
                >
                  Resolve as failed
                </ConfirmButton>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function LedgerHealthScreen() {
  const unapplied = useOperatorRead('list_unapplied_results', {});
  const legs = useOperatorRead('list_review_legs', {});
  return (
    <>
      <h1>Ledger health</h1>
      <LedgerVerification />
      <section aria-labelledby="review-heading">
        <h2 id="review-heading">Legs waiting for review</h2>
        <QueryResult query={legs}>{({ legs: list }) => <ReviewLegsTable legs={list} />}</QueryResult>
      </section>
      <section aria-labelledby="unapplied-heading">
        <h2 id="unapplied-heading">Unapplied provider results</h2>
        <QueryResult query={unapplied}>
          {({ results }) => <UnappliedResultsTable results={results} />}
        </QueryResult>
      </section>
    </>
  );
}
