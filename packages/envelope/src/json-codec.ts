// The JSON form of an envelope. Writing keeps keys in the order they were built and every value a JSON
// string, except channel balances, which go out as number tokens with exactly two decimals (`1500.00`).
// `JSON.stringify` cannot write `1500.00` (it prints the double, `1500`) and Node 20 has no
// `JSON.rawJSON`, hence the small serializer. Reading restores balances to their two-decimal text.

import { isChannelBalance, isTwoDecimalBalance } from './channel-balance.js';
import type { Envelope, WireMessage } from './envelope.js';
import { EnvelopeDecodeError } from './envelope-decode-error.js';
import { readEnvelope, WireNumber } from './envelope-reading.js';
import { readJson, JsonSyntaxError } from './json-syntax.js';
import { responseLimits } from './limits.js';
import { describeValue } from './value-description.js';
import { listEntryName } from './wire-arrays.js';
import { utf8Length } from './utf8-length.js';

/**
 * The JSON body of an envelope, compact, keys in the order built. Throws a `TypeError` when a value is
 * not a string, list or object, a list sits under a key that is not a known list (or a known list key
 * holds no list; the XML form could not carry it), or a channel balance is not a two-decimal string
 * such as "1500.00".
 *
 * @example
 * ```ts
 * import { encodeJson, failure } from '@topup/envelope';
 *
 * encodeJson(failure('4000', ['Invalid API Token'])); // '{"status":{"type":"FAIL","code":"4000","message":"Invalid API Token"},"data":{"errors":["Invalid API Token"]}}'
 * ```
 */
export function encodeJson(message: WireMessage): string {
  return writeContent(message, '', undefined);
}

/**
 * The envelope in a JSON body, balances as two-decimal strings. Throws `EnvelopeDecodeError` when the
 * text is not JSON, is over `responseLimits`, or is not an envelope.
 *
 * @example
 * ```ts
 * import { decodeJsonEnvelope } from '@topup/envelope';
 *
 * const envelope = decodeJsonEnvelope(
 *   '{"status":{"type":"SUCCESS","code":"0000","message":"Balance found"},"data":{"errors":[],"channels":[{"type":"Airtime","currency":"KES","balance":0.50}]}}',
 * );
 * envelope.data; // { errors: [], channels: [{ type: 'Airtime', currency: 'KES', balance: '0.50' }] }
 * ```
 */
export function decodeJsonEnvelope(text: string): Envelope {
  const bytes = utf8Length(text);
  if (bytes > responseLimits.maxBytes) {
    throw new EnvelopeDecodeError(
      `Expected a body of at most ${responseLimits.maxBytes} bytes, received ${bytes}.`,
    );
  }
  let tree: unknown;
  try {
    tree = readJson(text, {
      maxDepth: responseLimits.maxDepth,
      maxValues: responseLimits.maxNodes,
      number: (source) => new WireNumber(source),
    });
  } catch (error) {
    if (error instanceof JsonSyntaxError)
      throw new EnvelopeDecodeError(`Expected a JSON envelope. ${error.message}`);
    throw error;
  }
  return readEnvelope(tree, 'number');
}

function writeField(name: string, value: unknown, path: string, parentKey: string | undefined): string {
  const key = JSON.stringify(name);
  if (isChannelBalance(parentKey, name)) {
    if (typeof value === 'string' && isTwoDecimalBalance(value)) return `${key}:${value}`;
    throw new TypeError(
      `Expected a balance with exactly two decimals such as "1500.00" at ${path}, received ${describeValue(value)}.`,
    );
  }
  if (listEntryName(name) !== undefined) {
    if (!Array.isArray(value))
      throw new TypeError(`Expected a list at ${path}, received ${describeValue(value)}.`);
    const entries = value.map((entry: unknown, index) => writeContent(entry, `${path}[${index}]`, name));
    return `${key}:[${entries.join(',')}]`;
  }
  return `${key}:${writeContent(value, path, name)}`;
}

// `ownKey` is the key the value sits under (a list entry's is its list's key): its fields' parent key.
function writeContent(value: unknown, path: string, ownKey: string | undefined): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = Object.entries(value).map(([field, fieldValue]) =>
      writeField(field, fieldValue, path === '' ? field : `${path}.${field}`, ownKey),
    );
    return `{${fields.join(',')}}`;
  }
  const where = path === '' ? 'the top' : path;
  if (Array.isArray(value)) {
    throw new TypeError(
      `Expected a string or object at ${where}, received a list under a key that is not a known list.`,
    );
  }
  throw new TypeError(`Expected a string, list or object at ${where}, received ${describeValue(value)}.`);
}
