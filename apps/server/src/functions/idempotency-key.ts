// The `Idempotency-Key` header and the request fingerprint it is bound to: the function name and the
// validated request, so the same request sent as JSON or as XML has the same fingerprint.

import { createHash } from 'node:crypto';
import { ApiFailure } from '../api-failure.js';

const acceptableKey = /^[\x21-\x7e]{1,255}$/;

/** The key, or undefined when the header is absent; 1000 when it is present but unusable. */
export function idempotencyKeyOf(header: string): string | undefined {
  if (header === '') return undefined;
  if (!acceptableKey.test(header)) {
    throw new ApiFailure('1000', ['the Idempotency-Key header must be 1 to 255 visible ASCII characters']);
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
