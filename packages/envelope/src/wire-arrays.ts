// The lists the envelope may carry and the name of one entry of each. JSON writes them as arrays; XML
// has no arrays, so it writes a list as an element with one child per entry named by the singular, and
// needs this table to read them back. A key listed here always holds a list, never a scalar or object.

const entryNames: Readonly<Record<string, string>> = {
  errors: 'error',
  channels: 'channel',
  endpoints: 'endpoint',
  deliveries: 'delivery',
  attempts: 'attempt',
  legs: 'leg',
  recipients: 'recipient',
  transactions: 'transaction',
  postings: 'posting',
};

/**
 * The XML element name of one entry of the list under `key`, or undefined when `key` is not a list. XML
 * writes a list as an element named by the key holding one child per entry, named by this singular.
 *
 * @example
 * ```ts
 * import { listEntryName } from '@topup/envelope';
 *
 * listEntryName('recipients'); // 'recipient': <recipients><recipient>…</recipient></recipients>
 * listEntryName('errors'); // 'error'
 * listEntryName('channel'); // undefined: not a list
 * ```
 */
export function listEntryName(key: string): string | undefined {
  return Object.hasOwn(entryNames, key) ? entryNames[key] : undefined;
}
