// Whether the money adds up and what waits for a person: the ledger's invariants, provider results that
// arrived after their transaction was resolved the other way, and legs waiting for review (a fate the
// provider never told, a result contradicting what is recorded, one naming another amount or phone, a
// refund not made), each with why and its evidence, which an operator settles once the provider confirms
// it (a payment with the receipt the portal shows).

import { useState } from 'react';
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

/** One message that put a leg in review, as its evidence records it. */
function EvidenceLine({ entry }: { entry: Readonly<Record<string, string>> }) {
  const said = [
    entry['outcome'] === undefined ? entry['said'] : `reported ${entry['outcome']}`,
    entry['provider'] === undefined || entry['provider'] === '' ? undefined : `by ${entry['provider']}`,
    entry['providerCode'] === undefined || entry['providerCode'] === ''
      ? undefined
      : `(${entry['providerCode']})`,
    entry['recorded'] === undefined ? undefined : `where ${entry['recorded']} was recorded`,
  ].filter((part) => part !== undefined && part !== '');
  return (
    <li>
      {entry['at'] === undefined ? null : (
        <>
          <Instant iso={entry['at']} />{' '}
        </>
      )}
      {said.join(' ')}
      {entry['differences'] === undefined ? null : <strong>: {entry['differences']}</strong>}
      {entry['why'] === undefined ? null : <span className="muted"> — {entry['why']}</span>}
    </li>
  );
}

function ReviewLegRow({ leg }: { leg: LegView }) {
  const resolve = useOperatorChange('resolve_leg');
  const [receipt, setReceipt] = useState('');
  // A payment's receipt is what a later refund reverses: the operator gives the one the portal shows.
  const withReceipt = leg.kind === 'payment' && receipt.trim() !== '' ? { receipt: receipt.trim() } : {};
  return (
    <tbody data-testid="review-leg-row">
      <tr>
        <td className="code">{leg.id}</td>
        <td>
          {leg.state}
          {leg.provider === '' ? '' : ` via ${leg.provider}`}
          {leg.provider_reference === '' ? null : <span className="code"> {leg.provider_reference}</span>}
        </td>
        <td data-testid="review-reason">{leg.review_reason}</td>
        <td className="nowrap">
          <Instant iso={leg.review_since ?? leg.updated} />
        </td>
        <td className="row-actions">
          {leg.kind === 'payment' ? (
            <label className="inline-field">
              M-Pesa receipt
              <input
                value={receipt}
                maxLength={40}
                pattern="[A-Za-z0-9]*"
                onChange={(event) => {
                  setReceipt(event.target.value);
                }}
              />
            </label>
          ) : null}
          <ConfirmButton
            className="small"
            disabled={resolve.isPending}
            question={`Settle ${leg.id} as succeeded? Do this only once ${leg.provider || 'the provider'} confirmed it.`}
            onConfirm={() => {
              resolve.mutate({ leg: leg.id, as: 'succeeded', ...withReceipt });
            }}
          >
            Resolve as succeeded
          </ConfirmButton>
          <ConfirmButton
            className="small danger"
            disabled={resolve.isPending}
            question={`Settle ${leg.id} as failed? Do this only once ${leg.provider || 'the provider'} confirmed it.`}
            onConfirm={() => {
              resolve.mutate({ leg: leg.id, as: 'failed' });
            }}
          >
            Resolve as failed
          </ConfirmButton>
        </td>
      </tr>
      <tr className="evidence-row">
        <td colSpan={5}>
          <ErrorNotice error={resolve.error} />
          <ul className="evidence" data-testid="review-evidence">
            {leg.review_evidence.map((entry, index) => (
              <EvidenceLine key={index} entry={entry} />
            ))}
          </ul>
          {resolve.data?.why === undefined || resolve.data.why === '' ? null : (
            <p className="muted" role="status">
              {resolve.data.why}
            </p>
          )}
        </td>
      </tr>
    </tbody>
  );
}

function ReviewLegsTable({ legs }: { legs: readonly LegView[] }) {
  if (legs.length === 0) return <p className="empty">No legs wait for review.</p>;
  return (
    <table data-testid="review-legs-table">
      <thead>
        <tr>
          <th scope="col">Leg</th>
          <th scope="col">Recorded</th>
          <th scope="col">Why</th>
          <th scope="col">Waiting since</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      {legs.map((leg) => (
        <ReviewLegRow key={leg.id} leg={leg} />
      ))}
    </table>
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
