// A failure that the envelope error handler turns into a FAIL envelope: thrown anywhere in the pipeline
// so that every early exit leaves in the negotiated format with the right code and HTTP status.

import { statusCodes } from '@topup/envelope';
import type { CancellableOperation, FailureCode } from '@topup/envelope';

export interface ApiFailureOptions {
  readonly httpStatus?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly operation?: CancellableOperation;
}

export class ApiFailure extends Error {
  readonly httpStatus: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly operation: CancellableOperation | undefined;

  constructor(
    readonly code: FailureCode,
    readonly errors: readonly string[] = [],
    options: ApiFailureOptions = {},
  ) {
    super(`${code} ${statusCodes[code].message}${errors.length > 0 ? `: ${errors.join('; ')}` : ''}`);
    this.name = 'ApiFailure';
    this.httpStatus = options.httpStatus ?? statusCodes[code].httpStatus;
    this.headers = options.headers ?? {};
    this.operation = options.operation;
  }
}
