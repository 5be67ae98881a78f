// Recognises a store that cannot be reached (the ledger's reading: connection refused, reset, terminated,
// timed out), or silent past the request's store deadline, which is answered 9000 with HTTP 503 rather
// than 502, and fails /readyz.

import { isStoreUnavailable as storeUnreachable } from '@topup/ledger';
import { StoreDeadlineExceeded } from './store-deadline.js';

export function isStoreUnavailable(error: unknown): boolean {
  return storeUnreachable(error, (cause) => cause instanceof StoreDeadlineExceeded);
}
