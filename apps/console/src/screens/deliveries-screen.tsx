// An account's callback deliveries, filtered by status, endpoint and time, with every attempt; resend
// one, or every failed one since a moment (after fixing a receiver that was down).

import type { CallbackEndpointView } from '@topup/envelope';
import type { DeliveryFilters, DeliveryStatus } from '../api/caller-function-types';
import { wholeDays } from '../api/date-range';
import { filledIn } from '../api/filter-values';
import { useCallerChange, useCallerRead } from '../api/use-caller-function';
import { useScopedAccount } from '../auth/account-scope';
import { ChangeButton } from '../components/change-button';
import { DeliveriesTable } from '../components/deliveries-table';
import { ErrorNotice } from '../components/error-notice';
import { FilterForm } from '../components/filter-form';
import { ChoiceFilter, DayRangeFilter } from '../components/filter-fields';
import { useFilteredPages } from '../components/filtered-pages';
import { formFields } from '../components/form-fields';
import { Pager } from '../components/pager';
import { QueryResult } from '../components/query-result';
import { useTimeZone } from '../format/instant';

function filtersOf(field: (name: string) => string): DeliveryFilters {
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
  const zone = useTimeZone();
  return (
    <form
      className="filters"
      aria-label="Resend failed deliveries"
      onSubmit={(event) => {
        event.preventDefault();
        const field = formFields(event.currentTarget);
        const endpointId = field('endpoint_id');
        resendFailed.mutate({
          // Without an offset: the API reads it in the service's zone, in which the console shows times.
          since: field('since'),
          ...(endpointId === '' ? {} : { endpoint_id: endpointId }),
        });
      }}
    >
      <label>
        Failed since ({zone})
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
  const filtered = useFilteredPages<DeliveryFilters>({});
  const endpoints = useCallerRead('list_callback_endpoints', {});
  const listing = useCallerRead('list_callback_deliveries', filtered.request, { keepPrevious: true });
  const resend = useCallerChange('resend_callback');
  const endpointList = endpoints.data?.data.endpoints ?? [];

  return (
    <>
      <h1>Deliveries</h1>
      <FilterForm label="Delivery filters" listing={filtered} read={filtersOf}>
        <ChoiceFilter label="Status" name="status" choices={['pending', 'delivered', 'failed']} />
        <label>
          Endpoint
          <select name="endpoint_id" defaultValue="">
            <EndpointOptions endpoints={endpointList} />
          </select>
        </label>
        <DayRangeFilter />
      </FilterForm>
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
            <Pager pages={filtered.pages} nextCursor={data.next_cursor} label="Delivery pages" />
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
