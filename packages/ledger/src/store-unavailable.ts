// Recognises a store that cannot be reached (connection refused, reset, terminated, timed out, shut down),
// as opposed to a store that refused one statement. A batch that failed the first way fails for every
// item in it, so it is not worth retrying item by item; the server answers it 9000 with HTTP 503.

import { errorCode } from './error-code.js';

const unavailableCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '57014', // query_canceled: the statement timeout of an overloaded or stalled store
  '53300', // too_many_connections
  '25P03', // idle_in_transaction_session_timeout: the server closed the connection
  '08000',
  '08001',
  '08003',
  '08006',
]);

const unavailableMessages = [
  'Connection terminated',
  'timeout exceeded when trying to connect',
  'Client has encountered a connection error',
  'connection is closed',
  'PGlite is closed',
  'Query read timeout',
];

/**
 * Whether `error` says the store could not be reached, rather than that it refused a statement;
 * `alsoUnavailable` names the caller's own errors of that kind (a deadline that passed), looked for in
 * causes too.
 *
 * @example
 * ```ts
 * import { isStoreUnavailable } from '@topup/ledger';
 *
 * isStoreUnavailable(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' })); // true
 * isStoreUnavailable(Object.assign(new Error('duplicate key'), { code: '23505' })); // false
 * ```
 */
export function isStoreUnavailable(
  error: unknown,
  alsoUnavailable: (error: Error) => boolean = () => false,
): boolean {
  if (!(error instanceof Error)) return false;
  if (alsoUnavailable(error)) return true;
  const code = errorCode(error);
  if (code !== undefined && unavailableCodes.has(code)) return true;
  if (unavailableMessages.some((text) => error.message.includes(text))) return true;
  // A connection attempt to several addresses fails with one error per address.
  if (
    error instanceof AggregateError &&
    error.errors.some((each) => isStoreUnavailable(each, alsoUnavailable))
  )
    return true;
  return (
    error.cause !== undefined && error.cause !== error && isStoreUnavailable(error.cause, alsoUnavailable)
  );
}
