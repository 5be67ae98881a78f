// Every attempt to deliver one callback: when, what the receiver answered, how long it took, and why a
// failed attempt failed. This is what a caller needs to debug their receiver.

import type { CallbackAttemptView } from '@topup/envelope';
import { Instant } from '../format/instant';
import { formatDuration } from '../format/time';

export function AttemptsTable({ attempts }: { attempts: readonly CallbackAttemptView[] }) {
  if (attempts.length === 0) return <p className="empty">Not attempted yet.</p>;
  return (
    <table className="attempts" data-testid="attempts-table">
      <thead>
        <tr>
          <th scope="col">Time</th>
          <th scope="col">HTTP status</th>
          <th scope="col" className="number">
            Duration
          </th>
          <th scope="col">Outcome</th>
          <th scope="col">Response excerpt</th>
          <th scope="col">Error</th>
        </tr>
      </thead>
      <tbody>
        {attempts.map((attempt) => (
          <tr key={attempt.attempted}>
            <td className="nowrap">
              <Instant iso={attempt.attempted} />
            </td>
            <td>{attempt.http_status === '' ? '–' : attempt.http_status}</td>
            <td className="number nowrap">{formatDuration(attempt.duration_ms)}</td>
            <td>
              <span className={`badge badge-${attempt.outcome}`}>{attempt.outcome}</span>
            </td>
            <td>
              {attempt.response_excerpt !== '' && <pre className="excerpt">{attempt.response_excerpt}</pre>}
            </td>
            <td>{attempt.error}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
