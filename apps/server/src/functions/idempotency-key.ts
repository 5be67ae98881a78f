// The `Idempotency-Key` header and the request fingerprint it is bound to: the function name and the
// validated request, so the same request sent as JSON or as XML has the same fingerprint.

import { createHash } from 'node:crypto';
import { keyedOperations } from '@topup/validation';
import type { ApiFunctionName } from '@topup/validation';
import { ApiFailure } from '../api-failure.js';
import { listed } from '../name-list.js';

const acceptableKey = /^[\x21-\x7e]{1,255}$/;

/**
 * The functions that honour a key: the money operations. A key on any other function is refused rather
 * than ignored, since a caller who sends one expects a repeat to be answered, not carried out again (a
 * second add_callback_endpoint would add a second endpoint).
 */
const keyedFunctions: ReadonlySet<ApiFunctionName> = new Set(keyedOperations);
const keyedList = listed(keyedOperations);

/** The key, or undefined when the header is absent; 1000 when it is unusable, or sent where no key is honoured. */
export function idempotencyKeyOf(header: string, functionName: ApiFunctionName): string | undefined {
  if (header === '') return undefined;
  if (!acceptableKey.test(header)) {
    throw new ApiFailure('1000', ['the Idempotency-Key header must be 1 to 255 visible ASCII characters']);
  }
  if (!keyedFunctions.has(functionName)) {
    throw new ApiFailure('1000', [
      `Idempotency-Key is honoured only by ${keyedList}, not by ${functionName}; ` +
        'send the request without it',
    ]);
  }
  return header;
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, field]) => `${JSON.stringify(key)}:${canonical(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

export function requestFingerprint(functionName: string, input: unknown): string {
  return createHash('sha256').update(functionName).update('\n').update(canonical(input)).digest('hex');
}
