// What the pipeline learns about a request as it passes each middleware, in order.

import type { WireFormat } from '@topup/envelope';
import type { Account } from '@topup/ledger';
import type { ApiFunctionName } from '@topup/validation';
import type { Logger } from 'pino';

export interface ApiState {
  requestId: string;
  log: Logger;
  /** The response format, negotiated from `Accept` before anything can fail. */
  format: WireFormat;
  functionName?: ApiFunctionName;
  account?: Account;
  tokenId?: string;
  /** The decoded body, before validation. */
  body?: Record<string, unknown>;
  /** The validated, normalised request. */
  input?: unknown;
  /** The status code answered, for logs and metrics. */
  code?: string;
}
