// The `cursor` of the listing functions: where the previous page ended, as the keyset the ledger pages by,
// written as base64url of a small JSON array tagged with its listing. Callers treat it as opaque; it is
// read strictly (its one canonical spelling, the listing's own tag) so that a made-up cursor, or one of
// the other listing, is `'cursor is invalid'` rather than a page from somewhere else. Written with the
// platform's btoa, atob and TextEncoder, so the package stays usable where there is no Buffer (browsers).

import { firstNonXmlChar } from '@topup/envelope';
import { maxIdentifierLength } from './field-schemas.js';

/**
 * Where a `list_transactions` page ended: its last transaction's creation time in microseconds since the
 * Unix epoch (a digit string: the store keeps microseconds, and a time cut to milliseconds would skip a
 * transaction made later in the same millisecond), and its reference.
 *
 * @example
 * ```ts
 * import { encodeTransactionCursor, type TransactionCursor } from '@topup/validation';
 *
 * const position: TransactionCursor = { createdMicros: '1763723109000000', reference: 'TXF7K2M9QA' };
 * encodeTransactionCursor(position); // 'WyJ0IiwiMTc2MzcyMzEwOTAwMDAwMCIsIlRYRjdLMk05UUEiXQ'
 * ```
 */
export interface TransactionCursor {
  readonly createdMicros: string;
  readonly reference: string;
}

/**
 * Where a `list_statement` page ended: the id of its last posting (a digit string).
 *
 * @example
 * ```ts
 * import { encodeStatementCursor, type StatementCursor } from '@topup/validation';
 *
 * const position: StatementCursor = { postingId: '4096' };
 * encodeStatementCursor(position); // 'WyJzIiwiNDA5NiJd'
 * ```
 */
export interface StatementCursor {
  readonly postingId: string;
}

/** Longest cursor accepted: a transaction cursor with the longest reference fits well within it. */
export const maxCursorLength = 512;

const base64url = /^[A-Za-z0-9_-]+$/;
const epochMicros = /^[0-9]{1,18}$/;
// A posting id is a PostgreSQL bigint identity: positive and below 2^63.
const postingId = /^[1-9][0-9]{0,18}$/;
const maxBigint = 2n ** 63n - 1n;

function encode(values: readonly string[]): string {
  const bytes = new TextEncoder().encode(JSON.stringify(values));
  return btoa(String.fromCharCode(...bytes))
    .replaceAll('+', '-')
    .replaceAll('/', '_')
    .replace(/=+$/, '');
}

/** The values after the tag, when `text` is the canonical cursor of the listing tagged `tag`. */
function decode(text: string, tag: string): string[] | undefined {
  if (text.length > maxCursorLength || !base64url.test(text)) return undefined;
  let values: unknown;
  try {
    const binary = atob(text.replaceAll('-', '+').replaceAll('_', '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    values = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return undefined;
  }
  if (!Array.isArray(values) || values[0] !== tag) return undefined;
  const strings = values.filter((value): value is string => typeof value === 'string');
  // Unused low bits in the last character, or JSON spelled otherwise, would let many texts name one place.
  return strings.length === values.length && encode(strings) === text ? strings.slice(1) : undefined;
}

/**
 * The `cursor` text of a `list_transactions` position.
 *
 * @example
 * ```ts
 * import { decodeTransactionCursor, encodeTransactionCursor } from '@topup/validation';
 *
 * const cursor = encodeTransactionCursor({ createdMicros: '1763723109000000', reference: 'TXF7K2M9QA' });
 * decodeTransactionCursor(cursor); // { createdMicros: '1763723109000000', reference: 'TXF7K2M9QA' }
 * ```
 */
export function encodeTransactionCursor(position: TransactionCursor): string {
  return encode(['t', position.createdMicros, position.reference]);
}

/**
 * The position a `list_transactions` cursor names, or undefined when the text is not one (a statement's
 * cursor included).
 *
 * @example
 * ```ts
 * import { decodeTransactionCursor, encodeStatementCursor } from '@topup/validation';
 *
 * decodeTransactionCursor('WyJ0IiwiMTc2MzcyMzEwOTAwMDAwMCIsIlRYRjdLMk05UUEiXQ'); // { createdMicros: '1763723109000000', reference: 'TXF7K2M9QA' }
 * decodeTransactionCursor(encodeStatementCursor({ postingId: '4096' })); // undefined
 * decodeTransactionCursor('not a cursor'); // undefined
 * ```
 */
export function decodeTransactionCursor(text: string): TransactionCursor | undefined {
  const values = decode(text, 't');
  if (values?.length !== 2) return undefined;
  const [createdMicros = '', reference = ''] = values;
  const readable =
    epochMicros.test(createdMicros) &&
    reference.length >= 1 &&
    reference.length <= maxIdentifierLength &&
    firstNonXmlChar(reference) === undefined;
  return readable ? { createdMicros, reference } : undefined;
}

/**
 * The `cursor` text of a `list_statement` position.
 *
 * @example
 * ```ts
 * import { decodeStatementCursor, encodeStatementCursor } from '@topup/validation';
 *
 * decodeStatementCursor(encodeStatementCursor({ postingId: '4096' })); // { postingId: '4096' }
 * ```
 */
export function encodeStatementCursor(position: StatementCursor): string {
  return encode(['s', position.postingId]);
}

/**
 * The position a `list_statement` cursor names, or undefined when the text is not one.
 *
 * @example
 * ```ts
 * import { decodeStatementCursor } from '@topup/validation';
 *
 * decodeStatementCursor('WyJzIiwiNDA5NiJd'); // { postingId: '4096' }
 * decodeStatementCursor('WyJzIiwiLTEiXQ'); // undefined: ids are positive
 * ```
 */
export function decodeStatementCursor(text: string): StatementCursor | undefined {
  const values = decode(text, 's');
  if (values?.length !== 1) return undefined;
  const [id = ''] = values;
  return postingId.test(id) && BigInt(id) <= maxBigint ? { postingId: id } : undefined;
}

/**
 * Where a `list_callback_deliveries` page ended: its last delivery's creation time, in microseconds since
 * the Unix epoch (a digit string, as the database keeps it), and its id.
 *
 * @example
 * ```ts
 * import { encodeDeliveryCursor, type DeliveryCursor } from '@topup/validation';
 *
 * const position: DeliveryCursor = { createdMicros: '1763723109120453', id: 'cb_7Qm2VxK9pLs4Hd8Wn3Rt' };
 * encodeDeliveryCursor(position); // the `next_cursor` of the page that showed that delivery last
 * ```
 */
export interface DeliveryCursor {
  readonly createdMicros: string;
  readonly id: string;
}

/**
 * The `cursor` text of a `list_callback_deliveries` position.
 *
 * @example
 * ```ts
 * import { decodeDeliveryCursor, encodeDeliveryCursor } from '@topup/validation';
 *
 * const cursor = encodeDeliveryCursor({ createdMicros: '1763723109120453', id: 'cb_7Qm2' });
 * decodeDeliveryCursor(cursor); // { createdMicros: '1763723109120453', id: 'cb_7Qm2' }
 * ```
 */
export function encodeDeliveryCursor(position: DeliveryCursor): string {
  return encode(['d', position.createdMicros, position.id]);
}

/**
 * The position a `list_callback_deliveries` cursor names, or undefined when the text is not one (another
 * listing's cursor included).
 *
 * @example
 * ```ts
 * import { decodeDeliveryCursor, encodeTransactionCursor } from '@topup/validation';
 *
 * decodeDeliveryCursor('WyJkIiwiMTc2MzcyMzEwOTEyMDQ1MyIsImNiXzdRbTIiXQ'); // { createdMicros: '1763723109120453', id: 'cb_7Qm2' }
 * decodeDeliveryCursor(encodeTransactionCursor({ createdMicros: '1', reference: 'TX1' })); // undefined
 * ```
 */
export function decodeDeliveryCursor(text: string): DeliveryCursor | undefined {
  const values = decode(text, 'd');
  if (values?.length !== 2) return undefined;
  const [createdMicros, id] = values as [string, string];
  const readable =
    epochMicros.test(createdMicros) &&
    id.length >= 1 &&
    id.length <= maxIdentifierLength &&
    firstNonXmlChar(id) === undefined;
  return readable ? { createdMicros, id } : undefined;
}
