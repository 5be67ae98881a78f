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
import { utf8LengthOver } from './utf8-length.js';

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
  try {
    return writeContent(message, undefined);
  } catch (error) {
    if (!(error instanceof MisplacedValue)) throw error;
    const path = pathOf(error.steps);
    throw new TypeError(error.explain(path === '' ? 'the top' : path));
  }
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
  const bytes = utf8LengthOver(text, responseLimits.maxBytes);
  if (bytes !== undefined) {
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

// A value the JSON form cannot carry, thrown where it is found. The writer keeps no path on its way down
// (building one for every field cost more than writing the field), so each level adds its step as the
// fault passes back up, and `encodeJson` words the error once the path is whole.
class MisplacedValue extends Error {
  // Innermost first: a field's name, or a list entry's index.
  readonly steps: (string | number)[] = [];
  constructor(readonly explain: (where: string) => string) {
    super('A value the JSON form cannot carry; encodeJson says where.');
  }
}

function pathOf(steps: readonly (string | number)[]): string {
  let path = '';
  for (let index = steps.length - 1; index >= 0; index -= 1) {
    const step = steps[index];
    if (typeof step === 'number') path += `[${step}]`;
    else path = path === '' ? (step ?? '') : `${path}.${step ?? ''}`;
  }
  return path;
}

// Envelopes use a few dozen keys over and over; quoting each once saves a string per field written.
const quotedKeys = new Map<string, string>();
const mostQuotedKeys = 512;

function quoted(name: string): string {
  let key = quotedKeys.get(name);
  if (key === undefined) {
    key = JSON.stringify(name);
    if (quotedKeys.size < mostQuotedKeys) quotedKeys.set(name, key);
  }
  return key;
}

function writeField(name: string, value: unknown, parentKey: string | undefined): string {
  if (isChannelBalance(parentKey, name)) {
    if (typeof value === 'string' && isTwoDecimalBalance(value)) return value;
    throw new MisplacedValue(
      (where) =>
        `Expected a balance with exactly two decimals such as "1500.00" at ${where}, received ${describeValue(value)}.`,
    );
  }
  if (listEntryName(name) !== undefined) {
    if (!Array.isArray(value)) {
      throw new MisplacedValue((where) => `Expected a list at ${where}, received ${describeValue(value)}.`);
    }
    let list = '[';
    for (let index = 0; index < value.length; index += 1) {
      try {
        list += (index === 0 ? '' : ',') + writeContent(value[index], name);
      } catch (error) {
        if (error instanceof MisplacedValue) error.steps.push(index);
        throw error;
      }
    }
    return `${list}]`;
  }
  return writeContent(value, name);
}

// `ownKey` is the key the value sits under (a list entry's is its list's key): its fields' parent key.
function writeContent(value: unknown, ownKey: string | undefined): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const fields = value as Record<string, unknown>;
    let text = '{';
    for (const field in fields) {
      if (!Object.hasOwn(fields, field)) continue;
      try {
        text += `${text === '{' ? '' : ','}${quoted(field)}:${writeField(field, fields[field], ownKey)}`;
      } catch (error) {
        if (error instanceof MisplacedValue) error.steps.push(field);
        throw error;
      }
    }
    return `${text}}`;
  }
  if (Array.isArray(value)) {
    throw new MisplacedValue(
      (where) =>
        `Expected a string or object at ${where}, received a list under a key that is not a known list.`,
    );
  }
  throw new MisplacedValue(
    (where) => `Expected a string, list or object at ${where}, received ${describeValue(value)}.`,
  );
}
