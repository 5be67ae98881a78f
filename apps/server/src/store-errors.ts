// Recognises a store that cannot be reached (connection refused, reset, terminated, timed out, or silent
// past the request's store deadline), which is answered 9000 with HTTP 503 rather than 502, and fails
// /readyz.

import { StoreDeadlineExceeded } from './store-deadline.js';

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

export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error instanceof StoreDeadlineExceeded) return true;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && unavailableCodes.has(code)) return true;
  if (unavailableMessages.some((text) => error.message.includes(text))) return true;
  // A connection attempt to several addresses fails with one error per address.
  if (error instanceof AggregateError && error.errors.some(isStoreUnavailable)) return true;
  return error.cause !== undefined && error.cause !== error && isStoreUnavailable(error.cause);
}
