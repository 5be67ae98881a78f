// Case-insensitive header reading over the three shapes receivers hold: a Fetch `Headers`, node's
// `IncomingHttpHeaders`, or a plain object.

/**
 * Anything with a Fetch-style `get` (Fetch `Headers`, undici's, a polyfill's).
 *
 * @example
 * ```ts
 * import { readHeader, type HeaderGetter } from '@topup/signing';
 *
 * const headers: HeaderGetter = new Headers({ 'Webhook-Id': 'cb_01JD8Z6Q4M' });
 * readHeader(headers, 'webhook-id'); // 'cb_01JD8Z6Q4M'
 * ```
 */
export interface HeaderGetter {
  get(name: string): string | null;
}

/**
 * Headers to read from: a Fetch `Headers`, node's `IncomingHttpHeaders` or a plain object.
 *
 * @example
 * ```ts
 * import { readHeader, type HeaderSource } from '@topup/signing';
 *
 * const fetchHeaders: HeaderSource = new Headers({ 'Signature-Timestamp': '1763740800' });
 * const nodeHeaders: HeaderSource = { 'signature-timestamp': '1763740800' }; // IncomingHttpHeaders
 * readHeader(fetchHeaders, 'Signature-Timestamp'); // '1763740800'
 * readHeader(nodeHeaders, 'Signature-Timestamp'); // '1763740800'
 * ```
 */
export type HeaderSource = HeaderGetter | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Reads a header by name, ignoring case, trimmed. Returns undefined when it is absent or blank.
 * A header given several times (array values, or keys differing only in case) is combined with `, `
 * as HTTP combines repeated fields, the same way Fetch and node do.
 *
 * @example
 * ```ts
 * import { readHeader } from '@topup/signing';
 *
 * readHeader({ 'Webhook-Id': ' cb_1 ' }, 'webhook-id'); // 'cb_1'
 * readHeader({ 'x-tag': ['a', 'b'] }, 'X-Tag'); // 'a, b'
 * readHeader({ 'webhook-id': '  ' }, 'webhook-id'); // undefined
 * ```
 */
export function readHeader(headers: HeaderSource, name: string): string | undefined {
  const value = isHeaderGetter(headers) ? headers.get(name) : readFromRecord(headers, name.toLowerCase());
  const trimmed = value?.trim();
  return trimmed === undefined || trimmed === '' ? undefined : trimmed;
}

function isHeaderGetter(headers: HeaderSource): headers is HeaderGetter {
  return typeof (headers as Partial<HeaderGetter>).get === 'function';
}

function readFromRecord(
  headers: Readonly<Record<string, string | readonly string[] | undefined>>,
  lowerName: string,
): string | undefined {
  const values = Object.entries(headers)
    .filter(([key]) => key.toLowerCase() === lowerName)
    .flatMap(([, value]) => (value === undefined ? [] : typeof value === 'string' ? [value] : value));
  return values.length === 0 ? undefined : values.join(', ');
}
