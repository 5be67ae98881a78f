// An account's callback deliveries, filtered by status, endpoint and time, with every attempt; resend
// one, or every failed one since a moment (after fixing a receiver that was down).

import type { CallbackEndpointView } from '@topup/envelope';
import { useState } from 'react';
import type { DeliveryFilters, DeliveryStatus } from '../api/caller-function-types';
import { wholeDays } from '../api/date-range';
import { filledIn } from '../api/filter-values';
import { useCallerChange, useCallerRead } from '../api/use-caller-function';
import { useScopedAccount } from '../auth/account-scope';
import { ChangeButton } from '../components/change-button';
import { DeliveriesTable } from '../components/deliveries-table';
import { ErrorNotice } from '../components/error-notice';
import { formFields } from '../components/form-fields';
import { Pager, useCursorPages } from '../components/pager';
import { QueryResult } from '../components/query-result';
import { localDateTimeToIso } from '../format/time';

function filtersOf(form: HTMLFormElement): DeliveryFilters {
  const field = formFields(form);
  return filledIn({
    status: field('status') as DeliveryStatus,
    endpoint_id: field('endpoint_id'),
    ...wholeDays(field('from'), field('to')),
  });
}

function EndpointOptions({ endpoints }: { endpoints: readonly CallbackEndpointView[] }) {
  return (
    <>
      <option value="">Any</option>
      {endpoints.map((endpoint) => (
        <option key={endpoint.id} value={endpoint.id}>
          {endpoint.url} ({endpoint.id})
        </option>
      ))}
    </>
  );
}

function ResendFailedForm({ endpoints }: { endpoints: readonly CallbackEndpointView[] }) {
  const resendFailed = useCallerChange('resend_failed_callbacks');
  return (
    <form
      className="filters"
      aria-label="Resend failed deliveries"
      onSubmit={(event) => {
        event.preventDefault();
        const field = formFields(event.currentTarget);
        const endpointId = field('endpoint_id');
        resendFailed.mutate({
          since: localDateTimeToIso(field('since')),
          ...(endpointId === '' ? {} : { endpoint_id: endpointId }),
        });
      }}
    >
      <label>
        Failed since
        <input name="since" type="datetime-local" required />
      </label>
      <label>
        Endpoint
        <select name="endpoint_id" defaultValue="">
          <EndpointOptions endpoints={endpoints} />
        </select>
      </label>
      <div className="actions">
        <ChangeButton type="submit" disabled={resendFailed.isPending}>
          Resend all failed
        </ChangeButton>
      </div>
      {resendFailed.isSuccess && (
        <p className="notice notice-success" role="status" data-testid="resend-failed-result">
          {resendFailed.data.message}: {resendFailed.data.data.resend.queued} queued.
          {resendFailed.data.data.resend.more === 'true' && ' More are left: resend again to queue them.'}
        </p>
      )}
      <ErrorNotice error={resendFailed.error} />
    </form>
  );
}

export function DeliveriesScreen() {
  const accountId = useScopedAccount();
  const [filters, setFilters] = useState<DeliveryFilters>({});
  const pages = useCursorPages();
  const endpoints = useCallerRead('list_callback_endpoints', {});
  const listing = useCallerRead(
    'list_callback_deliveries',
    { ...filters, ...(pages.cursor === undefined ? {} : { cursor: pages.cursor }) },
    { keepPrevious: true },
  );
  const resend = useCallerChange('resend_callback');
  const endpointList = endpoints.data?.data.endpoints ?? [];

  return (
    <>
      <h1>Deliveries</h1>
      <form
        className="filters"
        aria-label="Delivery filters"
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
          Status
          <select name="status" defaultValue="">
            <option value="">Any</option>
            <option value="pending">pending</option>
            <option value="delivered">delivered</option>
            <option value="failed">failed</option>
          </select>
        </label>
        <label>
          Endpoint
          <select name="endpoint_id" defaultValue="">
            <EndpointOptions endpoints={endpointList} />
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
        <div className="actions">
          <button type="submit">Apply filters</button>
          <button type="reset" className="secondary">
            Clear filters
          </button>
        </div>
      </form>
      {resend.isSuccess && (
        <p className="notice notice-success" role="status" data-testid="resend-result">
          {resend.data.message}: {resend.data.data.resend.queued} queued.
        </p>
      )}
      <ErrorNotice error={resend.error} />
      <QueryResult query={listing}>
        {({ data }) => (
          <>
            <DeliveriesTable
              deliveries={data.deliveries}
              accountId={accountId}
              testId="deliveries-table"
              resending={resend.isPending}
              onResend={(delivery) => {
                resend.mutate({ reference: delivery.reference, endpoint_id: delivery.endpoint_id });
              }}
            />
            <Pager pages={pages} nextCursor={data.next_cursor} label="Delivery pages" />
          </>
        )}
      </QueryResult>
      <section aria-labelledby="resend-failed-heading">
        <h2 id="resend-failed-heading">Resend failed deliveries</h2>
        <ResendFailedForm endpoints={endpointList} />
      </section>
    </>
  );
}
