// Callback health across every account: the endpoints whose deliveries of the last 24 hours failed or
// wait on retries, or that are disabled, worst first, each linking to its account's deliveries.

import { Link } from '@tanstack/react-router';
import { useOperatorRead } from '../api/use-operator-function';
import { QueryResult } from '../components/query-result';
import { accountPath } from '../routes/paths';

export function DeliveryMonitorScreen() {
  const monitor = useOperatorRead('delivery_monitor', {});
  return (
    <>
      <h1>Delivery monitor</h1>
      <p className="muted">Endpoints with failed, retrying or disabled deliveries over the last 24 hours.</p>
      <QueryResult query={monitor}>
        {({ endpoints }) =>
          endpoints.length === 0 ? (
            <p className="empty">Every endpoint is keeping up.</p>
          ) : (
            <table data-testid="delivery-monitor-table">
              <thead>
                <tr>
                  <th scope="col">Account</th>
                  <th scope="col">Endpoint</th>
                  <th scope="col" className="number">
                    Deliveries
                  </th>
                  <th scope="col" className="number">
                    Delivered
                  </th>
                  <th scope="col" className="number">
                    Failed
                  </th>
                  <th scope="col" className="number">
                    Retrying
                  </th>
                  <th scope="col" className="number">
                    Failure rate
                  </th>
                  <th scope="col">Last error</th>
                </tr>
              </thead>
              <tbody>
                {endpoints.map((endpoint) => (
                  <tr key={endpoint.endpoint_id} data-testid="monitored-endpoint-row">
                    <td>
                      <Link to={accountPath(endpoint.account, 'deliveries')} className="code">
                        {endpoint.account}
                      </Link>
                    </td>
                    <td>
                      <span className="code">{endpoint.url}</span>
                      <div className="muted code">{endpoint.endpoint_id}</div>
                      {!endpoint.enabled && (
                        <div>
                          <span className="badge badge-failed">disabled</span> {endpoint.disabled_reason}
                        </div>
                      )}
                    </td>
                    <td className="number">{endpoint.deliveries_24h}</td>
                    <td className="number">{endpoint.delivered_24h}</td>
                    <td className="number">{endpoint.failed_24h}</td>
                    <td className="number">{endpoint.retrying}</td>
                    <td className="number">{endpoint.failure_rate} %</td>
                    <td>{endpoint.last_error}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </QueryResult>
    </>
  );
}
