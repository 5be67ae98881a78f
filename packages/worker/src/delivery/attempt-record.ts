// What an attempt leaves in the record callers read (`list_callback_deliveries`, the CLI): a public
// receiver's status, the first 20 KB of its answer, or how the attempt failed. A receiver that is not public
// (loopback, or a private network the operator opened to callbacks) shows its status only, and a failure
// reads "connection failed" whether the port was closed, the host silent or the answer cut off, so a
// callback cannot be used to read, or map, a network the operator let callbacks reach. The worker's log
// keeps the detail for the operator.

import type { CallbackPostResult } from './post-callback.js';

/** What callers read of an attempt that failed at a receiver that is not public. */
export const CONNECTION_FAILED = 'connection failed';

export interface AttemptRecord {
  readonly responseExcerpt: string;
  readonly httpStatus?: number;
  readonly error?: string;
}

export function attemptRecord(result: CallbackPostResult, receiverIsPublic: boolean): AttemptRecord {
  if (result.kind === 'answered') {
    return { responseExcerpt: receiverIsPublic ? result.excerpt : '', httpStatus: result.status };
  }
  return { responseExcerpt: '', error: receiverIsPublic ? result.error : CONNECTION_FAILED };
}
