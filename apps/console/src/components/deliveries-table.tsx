// Callback deliveries as a table: one row per delivery of a transaction to an endpoint, its attempts
// folded under it, and a resend button when the screen offers one.

import type { CallbackDeliveryView } from '@topup/envelope';
import { Link } from '@tanstack/react-router';
import { Instant } from '../format/instant';
import { accountPath } from '../routes/paths';
import { AttemptsTable } from './attempts-table';
import { ChangeButton } from './change-button';

interface DeliveriesTableProps {
  deliveries: readonly CallbackDeliveryView[];
  accountId: string | undefined;
  testId: string;
  /** Offered per row when given: sends the delivery's callback again to its endpoint. */
  onResend?: (delivery: CallbackDeliveryView) => void;
  resending?: boolean;
}

export function DeliveriesTable({
  deliveries,
  accountId,
  testId,
  onResend,
  resending,
}: DeliveriesTableProps) {
  if (deliveries.length === 0) return <p className="empty">No deliveries.</p>;
  return (
    <table data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">Created</th>
          <th scope="col">Reference</th>
          <th scope="col">Endpoint</th>
          <th scope="col">Status</th>
          <th scope="col">Last error</th>
          <th scope="col">Next attempt</th>
          <th scope="col">Attempts</th>
          {onResend !== undefined && <th scope="col">Actions</th>}
        </tr>
      </thead>
      <tbody>
        {deliveries.map((delivery) => (
          <tr key={delivery.id} data-testid="delivery-row">
            <td className="nowrap">
              <Instant iso={delivery.created} />
            </td>
            <td>
              <Link to={accountPath(accountId, 'transactions', delivery.reference)} className="code">
                {delivery.reference}
              </Link>
            </td>
            <td className="code">{delivery.endpoint_id}</td>
            <td>
              <span className={`badge badge-${delivery.status}`}>{delivery.status}</span>
            </td>
            <td>{delivery.last_error}</td>
            <td className="nowrap">
              <Instant iso={delivery.next_attempt} />
            </td>
            <td>
              <details>
                <summary>
                  {delivery.attempts.length} {delivery.attempts.length === 1 ? 'attempt' : 'attempts'}
                </summary>
                <AttemptsTable attempts={delivery.attempts} />
              </details>
            </td>
            {onResend !== undefined && (
              <td>
                <ChangeButton
                  className="small"
                  disabled={resending}
                  onClick={() => {
                    onResend(delivery);
                  }}
                >
                  Resend
                </ChangeButton>
              </td>
            )}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
