// One transaction on one page, for a "top-up not received" investigation: what was asked, the parties,
// the legs with each provider's reference, and every callback delivery with every attempt, with a way
// to send the callback again. A reference the account does not have is "No such transaction", with
// nothing to do on it.

import type { FoundTransactionData, TransactionLegView } from '@topup/envelope';
import { useParams } from '@tanstack/react-router';
import type { JSX } from 'react';
import { isUnknownReference } from '../api/console-api-error';
import { useCallerChange, useCallerRead } from '../api/use-caller-function';
import { useScopedAccount } from '../auth/account-scope';
import { AttemptsTable } from '../components/attempts-table';
import { ChangeButton } from '../components/change-button';
import { ErrorNotice } from '../components/error-notice';
import { QueryResult } from '../components/query-result';
import { formatMoney } from '../format/money';
import { Instant, useTimeZone } from '../format/instant';

/**
 * Fields whose names alone mislead: the spec's `status` stays `Requested` once a transaction completes,
 * beside the precise `state`, so each says which it is.
 */
const explained: Readonly<Record<string, { label: string; title: string }>> = {
  status: {
    label: 'Status (API)',
    title:
      'transaction.status as the API contract defines it: Requested, or Cancelled; a completed transaction still reads Requested',
  },
  state: {
    label: 'State',
    title: 'Where the transaction is in its lifecycle: requested, completed or cancelled',
  },
};

/** "agent_number" → "Agent number". */
function labelOf(key: string): string {
  const words = key.replaceAll('_', ' ');
  return explained[key]?.label ?? words.charAt(0).toUpperCase() + words.slice(1);
}

/** The non-empty text fields of an object as a description list. */
function Fields({ values, testId }: { values: object; testId?: string }) {
  const shown = Object.entries(values).filter(
    (entry): entry is [string, string | number] =>
      (typeof entry[1] === 'string' && entry[1] !== '') || typeof entry[1] === 'number',
  );
  if (shown.length === 0) return <p className="empty">Nothing recorded.</p>;
  return (
    <dl className="fields" data-testid={testId}>
      {shown.map(([key, value]) => (
        <div key={key} title={explained[key]?.title}>
          <dt>{labelOf(key)}</dt>
          <dd>{String(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function LegsTable({ legs }: { legs: readonly TransactionLegView[] }) {
  if (legs.length === 0) return <p className="empty">No legs yet: the transaction was not submitted.</p>;
  return (
    <table data-testid="legs-table">
      <thead>
        <tr>
          <th scope="col">Leg</th>
          <th scope="col">Kind</th>
          <th scope="col">Provider</th>
          <th scope="col">State</th>
          <th scope="col">Provider reference</th>
          <th scope="col">Updated</th>
        </tr>
      </thead>
      <tbody>
        {legs.map((leg) => (
          <tr key={leg.id}>
            <td className="code">{leg.id}</td>
            <td>{leg.kind}</td>
            <td>{leg.provider}</td>
            <td>
              <span className={`badge badge-${leg.state}`}>{leg.state}</span>
            </td>
            <td className="code">{leg.provider_reference}</td>
            <td className="nowrap">
              <Instant iso={leg.updated} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Parties({ data }: { data: FoundTransactionData }) {
  return (
    <div className="columns">
      <section aria-labelledby="sender-heading">
        <h2 id="sender-heading">Sender</h2>
        <Fields values={data.sender} />
      </section>
      <section aria-labelledby="recipient-heading">
        <h2 id="recipient-heading">Recipient</h2>
        <Fields values={data.recipient} testId="recipient-fields" />
      </section>
      {'payment' in data && (
        <section aria-labelledby="payment-heading">
          <h2 id="payment-heading">Payer</h2>
          <Fields values={data.payment} />
        </section>
      )}
    </div>
  );
}

function Deliveries({ reference }: { reference: string }) {
  const deliveries = useCallerRead('list_callback_deliveries', { reference });
  const resend = useCallerChange('resend_callback');
  return (
    <section aria-labelledby="deliveries-heading">
      <div className="heading-row">
        <h2 id="deliveries-heading">Callback deliveries</h2>
        <ChangeButton
          disabled={resend.isPending}
          onClick={() => {
            resend.mutate({ reference });
          }}
        >
          Resend callback
        </ChangeButton>
      </div>
      {resend.isSuccess && (
        <p className="notice notice-success" role="status" data-testid="resend-result">
          {resend.data.message}: {resend.data.data.resend.queued} queued.
        </p>
      )}
      <ErrorNotice error={resend.error} />
      <QueryResult query={deliveries}>
        {({ data }) =>
          data.deliveries.length === 0 ? (
            <p className="empty">No callbacks yet.</p>
          ) : (
            data.deliveries.map((delivery) => (
              <article key={delivery.id} className="delivery" data-testid="delivery">
                <h3>
                  To endpoint <span className="code">{delivery.endpoint_id}</span>{' '}
                  <span className={`badge badge-${delivery.status}`}>{delivery.status}</span>
                </h3>
                <p className="muted">
                  Created <Instant iso={delivery.created} />
                  {delivery.delivered !== '' && (
                    <>
                      ; delivered <Instant iso={delivery.delivered} />
                    </>
                  )}
                  {delivery.next_attempt !== '' && (
                    <>
                      ; next attempt <Instant iso={delivery.next_attempt} />
                    </>
                  )}
                </p>
                <AttemptsTable attempts={delivery.attempts} />
              </article>
            ))
          )
        }
      </QueryResult>
    </section>
  );
}

// Its type is written out: the route tree's type is read from the screens, and this one's body reads
// the route's parameters, whose type is read from the route tree.
export function TransactionDetailScreen(): JSX.Element {
  const { reference = '' } = useParams({ strict: false });
  const accountId = useScopedAccount();
  const found = useCallerRead('get_transaction', { reference });
  const zone = useTimeZone();

  if (found.isError && isUnknownReference(found.error))
    return (
      <>
        <h1>No such transaction</h1>
        <p className="empty" data-testid="no-such-transaction">
          {accountId === undefined ? 'Your account' : `Account ${accountId}`} has no transaction{' '}
          <span className="code">{reference}</span>.
        </p>
      </>
    );
  return (
    <>
      <h1>
        Transaction <span className="code">{reference}</span>
      </h1>
      {accountId !== undefined && <p className="muted">Account {accountId}</p>}
      <p className="muted">Dates and times are in {zone}.</p>
      <QueryResult query={found}>
        {({ data }) => (
          <>
            <section aria-labelledby="request-heading">
              <h2 id="request-heading">Request</h2>
              <p className="lead">
                <span className={`badge badge-${data.transaction.state}`}>{data.transaction.state}</span>{' '}
                {data.transaction.type} of {data.transaction.currency} {formatMoney(data.transaction.amount)}
              </p>
              <Fields values={data.transaction} testId="transaction-fields" />
            </section>
            <Parties data={data} />
            {(data.messaging.message !== '' || data.messaging.sender !== '') && (
              <section aria-labelledby="messaging-heading">
                <h2 id="messaging-heading">Messages</h2>
                <Fields values={data.messaging} />
              </section>
            )}
            <section aria-labelledby="legs-heading">
              <h2 id="legs-heading">Legs</h2>
              <LegsTable legs={data.legs} />
            </section>
          </>
        )}
      </QueryResult>
      {found.isSuccess && <Deliveries reference={reference} />}
    </>
  );
}
