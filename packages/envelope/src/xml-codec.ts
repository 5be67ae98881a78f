// The XML form of an envelope (spec, "XML form of a response"): the declaration, root `xml`, every
// object an element of the same name, every scalar a child element named by its field. Choices the spec
// leaves open, fixed here: the output is compact (no whitespace between elements, like the signing
// vectors); an empty string is written `<note></note>`, never `<note/>`; a list is an element holding
// one child per entry named by the singular (`errors`/`error`, `channels`/`channel`, see wire-arrays.ts),
// and an empty list is an empty element. Text escapes `& < > " '` and CR (as `&#13;`, which parsers keep).

import { isChannelBalance, isTwoDecimalBalance } from './channel-balance.js';
import type { Envelope, WireMessage } from './envelope.js';
import { EnvelopeDecodeError } from './envelope-decode-error.js';
import { readEnvelope } from './envelope-reading.js';
import { responseLimits } from './limits.js';
import { listEntryName } from './wire-arrays.js';
import { readXml, type XmlElement } from './xml-reading.js';
import { describeValue } from './value-description.js';
import { codePointLabel, escapeXmlText, firstNonXmlChar } from './xml-text.js';

const declaration = '<?xml version="1.0" encoding="utf-8"?>';
// An ASCII subset of XML names without colons: enough for every field of the contract.
const elementName = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const xmlWhitespace = /^[ \t\r\n]*$/;

/**
 * The XML body of an envelope, compact, elements in the order built. Throws a `TypeError` when a value
 * is not a string, list or object, a list sits under a key that is not a known list (or a known list
 * key holds no list), a key is not a plain element name, a string holds a character XML cannot carry
 * (most control characters, lone surrogates), or a channel balance is not a two-decimal string.
 *
 * @example
 * ```ts
 * import { encodeXml, failure } from '@topup/envelope';
 *
 * encodeXml(failure('3000', ["'mobile is required.'"])); // `<?xml version="1.0" encoding="utf-8"?><xml><status><type>FAIL</type><code>3000</code><message>Missing or Invalid Parameters</message></status><data><errors><error>&apos;mobile is required.&apos;</error></errors></data></xml>`
 * ```
 */
export function encodeXml(message: WireMessage): string {
  return `${declaration}<xml>${writeContent(message, '', 'xml')}</xml>`;
}

/**
 * The envelope in an XML body: lists restored from their known names (`errors` is always a list),
 * every value a string, balances as two-decimal strings. Throws `EnvelopeDecodeError` when the text is
 * not well-formed, is refused as hostile or over `responseLimits`, or is not an envelope.
 *
 * @example
 * ```ts
 * import { decodeXmlEnvelope } from '@topup/envelope';
 *
 * const envelope = decodeXmlEnvelope(
 *   '<?xml version="1.0" encoding="utf-8"?><xml><status><type>FAIL</type><code>7000</code><message>Insufficient Balance</message></status><data><errors></errors></data></xml>',
 * );
 * envelope; // { status: { type: 'FAIL', code: '7000', message: 'Insufficient Balance' }, data: { errors: [] } }
 * ```
 */
export function decodeXmlEnvelope(text: string): Envelope {
  const reading = readXml(text, responseLimits);
  if (!reading.ok) throw new EnvelopeDecodeError(reading.problem);
  const { root } = reading;
  if (root.name !== 'xml')
    throw new EnvelopeDecodeError(`Expected the root element <xml>, received <${root.name}>.`);
  return readEnvelope(valueOf(root), 'text');
}

function writeField(name: string, value: unknown, path: string, parentKey: string): string {
  if (!elementName.test(name)) {
    throw new TypeError(
      `Expected a plain element name (letters, digits, _ . -) at ${path}, received ${JSON.stringify(name)}.`,
    );
  }
  if (isChannelBalance(parentKey, name)) {
    if (typeof value === 'string' && isTwoDecimalBalance(value)) return `<${name}>${value}</${name}>`;
    throw new TypeError(
      `Expected a balance with exactly two decimals such as "1500.00" at ${path}, received ${describeValue(value)}.`,
    );
  }
  const entryName = listEntryName(name);
  if (entryName !== undefined) {
    if (!Array.isArray(value))
      throw new TypeError(`Expected a list at ${path}, received ${describeValue(value)}.`);
    const entries = value.map(
      (entry: unknown, index) =>
        `<${entryName}>${writeContent(entry, `${path}[${index}]`, name)}</${entryName}>`,
    );
    return `<${name}>${entries.join('')}</${name}>`;
  }
  return `<${name}>${writeContent(value, path, name)}</${name}>`;
}

// `ownKey` is the key the value sits under (a list entry's is its list's key): its fields' parent key.
function writeContent(value: unknown, path: string, ownKey: string): string {
  if (typeof value === 'string') {
    const forbidden = firstNonXmlChar(value);
    if (forbidden !== undefined) {
      throw new TypeError(
        `Expected text XML can carry at ${path}, received the character ${codePointLabel(forbidden)}.`,
      );
    }
    return escapeXmlText(value);
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return Object.entries(value)
      .map(([field, fieldValue]) =>
        writeField(field, fieldValue, path === '' ? field : `${path}.${field}`, ownKey),
      )
      .join('');
  }
  const where = path === '' ? 'the top' : path;
  if (Array.isArray(value)) {
    throw new TypeError(
      `Expected a string or object at ${where}, received a list under a key that is not a known list.`,
    );
  }
  throw new TypeError(`Expected a string, list or object at ${where}, received ${describeValue(value)}.`);
}

function valueOf(element: XmlElement): unknown {
  const entryName = listEntryName(element.name);
  if (entryName !== undefined) return listOf(element, entryName);
  if (element.children.length === 0) return element.text;
  const entries: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const child of element.children) {
    if (seen.has(child.name)) {
      throw new EnvelopeDecodeError(
        `Expected <${child.name}> once in <${element.name}>, received it more than once.`,
      );
    }
    seen.add(child.name);
    entries.push([child.name, valueOf(child)]);
  }
  return Object.fromEntries(entries);
}

function listOf(element: XmlElement, entryName: string): unknown[] {
  if (element.children.length === 0 && !xmlWhitespace.test(element.text)) {
    throw new EnvelopeDecodeError(
      `Expected <${entryName}> entries in <${element.name}>, received text ${JSON.stringify(element.text.slice(0, 40))}.`,
    );
  }
  return element.children.map((child) => {
    if (child.name !== entryName) {
      throw new EnvelopeDecodeError(
        `Expected <${entryName}> entries in <${element.name}>, received <${child.name}>.`,
      );
    }
    return valueOf(child);
  });
}
