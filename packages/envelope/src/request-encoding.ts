// Request bodies as a client writes them, the mirror of request-decoding.ts: a flat set of fields, in
// JSON an object and in XML root `xml` with one child element per field (docs/decisions.md, Wire format).
// Fields left undefined are omitted, so optional inputs need no cleaning by the caller. XML text is
// escaped exactly as the response encoder escapes it.

import { describeValue } from './value-description.js';
import { codePointLabel, escapeXmlText, firstNonXmlChar } from './xml-text.js';

/**
 * A value of one request field: text, or a number written as the caller gave it.
 *
 * @example
 * ```ts
 * import { encodeJsonRequest, type RequestFieldValue } from '@topup/envelope';
 *
 * const amount: RequestFieldValue = 500;
 * encodeJsonRequest({ amount }); // '{"amount":500}'
 * ```
 */
export type RequestFieldValue = string | number;

/**
 * The fields of a request body, in the order they are written; undefined fields are left out.
 *
 * @example
 * ```ts
 * import { encodeXmlRequest, type RequestFields } from '@topup/envelope';
 *
 * const fields: RequestFields = { mobile: '254712345678', amount: 500, note: undefined };
 * encodeXmlRequest(fields); // '<?xml version="1.0" encoding="utf-8"?><xml><mobile>254712345678</mobile><amount>500</amount></xml>'
 * ```
 */
export type RequestFields = Readonly<Record<string, RequestFieldValue | undefined>>;

const declaration = '<?xml version="1.0" encoding="utf-8"?>';
// The same names the response encoder writes: an ASCII subset of XML names without colons.
const elementName = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * The JSON body of a request: one member per defined field, strings as JSON strings and numbers as
 * number tokens. Throws a `TypeError` when a value is neither a string nor a finite number.
 *
 * @example
 * ```ts
 * import { encodeJsonRequest } from '@topup/envelope';
 *
 * encodeJsonRequest({ mobile: '254712345678', amount: 500, note: undefined }); // '{"mobile":"254712345678","amount":500}'
 * ```
 */
export function encodeJsonRequest(fields: RequestFields): string {
  const members = definedFields(fields).map(
    ([name, value]) => `${JSON.stringify(name)}:${JSON.stringify(value)}`,
  );
  return `{${members.join(',')}}`;
}

/**
 * The XML body of a request: the declaration, root `xml`, one child element per defined field holding
 * its text. Throws a `TypeError` when a value is neither a string nor a finite number, a name is not a
 * plain element name, or a string holds a character XML cannot carry.
 *
 * @example
 * ```ts
 * import { encodeXmlRequest } from '@topup/envelope';
 *
 * encodeXmlRequest({ reference: 'TXF7K2M9QA' }); // '<?xml version="1.0" encoding="utf-8"?><xml><reference>TXF7K2M9QA</reference></xml>'
 * ```
 */
export function encodeXmlRequest(fields: RequestFields): string {
  const children = definedFields(fields).map(([name, value]) => {
    if (!elementName.test(name)) {
      throw new TypeError(
        `Expected a plain element name (letters, digits, _ . -) for a request field, received ${JSON.stringify(name)}.`,
      );
    }
    const text = String(value);
    const forbidden = firstNonXmlChar(text);
    if (forbidden !== undefined) {
      throw new TypeError(
        `Expected text XML can carry in ${name}, received the character ${codePointLabel(forbidden)}.`,
      );
    }
    return `<${name}>${escapeXmlText(text)}</${name}>`;
  });
  return `${declaration}<xml>${children.join('')}</xml>`;
}

function definedFields(fields: RequestFields): [string, RequestFieldValue][] {
  const defined: [string, RequestFieldValue][] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    // Callers from plain JavaScript can pass anything; NaN or an object would be written as nonsense.
    const acceptable = typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
    if (!acceptable) {
      throw new TypeError(
        `Expected a string or a finite number in request field ${name}, received ${describeValue(value)}.`,
      );
    }
    defined.push([name, value]);
  }
  return defined;
}
