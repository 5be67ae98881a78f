// Request bodies as a client writes them, the mirror of request-decoding.ts: a set of fields, in JSON an
// object and in XML root `xml` with one child element per field (docs/decisions.md, Wire format). A list
// field (`recipients`) holds entries of fields, written in XML as one element per entry named by the
// singular (`<recipients><recipient>…</recipient></recipients>`), which is how the server reads it back.
// Fields left undefined are omitted, so optional inputs need no cleaning by the caller. XML text is
// escaped exactly as the response encoder escapes it.

import { describeValue } from './value-description.js';
import { listEntryName } from './wire-arrays.js';
import { codePointLabel, escapeXmlText, firstNonXmlChar } from './xml-text.js';

/**
 * A value of one request field: text, a number written as the caller gave it, or, under a list field
 * such as `recipients`, the list's entries, each a set of fields.
 *
 * @example
 * ```ts
 * import { encodeJsonRequest, type RequestFieldValue } from '@topup/envelope';
 *
 * const amount: RequestFieldValue = 500;
 * const recipients: RequestFieldValue = [{ mobile: '254712345678', amount }];
 * encodeJsonRequest({ recipients }); // '{"recipients":[{"mobile":"254712345678","amount":500}]}'
 * ```
 */
export type RequestFieldValue = string | number | readonly RequestFields[];

/**
 * The fields of a request body, or of one entry of a list field, in the order they are written;
 * undefined fields are left out.
 *
 * @example
 * ```ts
 * import { encodeXmlRequest, type RequestFields } from '@topup/envelope';
 *
 * const fields: RequestFields = { mobile: '254712345678', amount: 500, note: undefined };
 * encodeXmlRequest(fields); // '<?xml version="1.0" encoding="utf-8"?><xml><mobile>254712345678</mobile><amount>500</amount></xml>'
 * ```
 */
export type RequestFields = { readonly [name: string]: RequestFieldValue | undefined };

/** A defined field, with its path in the body (`recipients[1].amount`) for error messages. */
type DefinedField =
  | { readonly name: string; readonly path: string; readonly value: string | number }
  | {
      readonly name: string;
      readonly path: string;
      readonly entries: readonly RequestFields[];
      readonly entryName: string;
    };

const declaration = '<?xml version="1.0" encoding="utf-8"?>';
// The same names the response encoder writes: an ASCII subset of XML names without colons.
const elementName = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * The JSON body of a request: one member per defined field, strings as JSON strings, numbers as number
 * tokens and a list field as an array of objects. Throws a `TypeError` when a value is neither a string
 * nor a finite number, or is a list under a field that is not a list field or with an entry that is not
 * an object.
 *
 * @example
 * ```ts
 * import { encodeJsonRequest } from '@topup/envelope';
 *
 * encodeJsonRequest({ mobile: '254712345678', amount: 500, note: undefined }); // '{"mobile":"254712345678","amount":500}'
 * encodeJsonRequest({ recipients: [{ mobile: '254712345678', amount: 50 }] });
 * // '{"recipients":[{"mobile":"254712345678","amount":50}]}'
 * ```
 */
export function encodeJsonRequest(fields: RequestFields): string {
  return jsonObject(fields, '');
}

function jsonObject(fields: RequestFields, path: string): string {
  const members = definedFields(fields, path).map((field) => {
    const text =
      'entries' in field
        ? `[${field.entries.map((entry, index) => jsonObject(entry, `${field.path}[${index}]`)).join(',')}]`
        : JSON.stringify(field.value);
    return `${JSON.stringify(field.name)}:${text}`;
  });
  return `{${members.join(',')}}`;
}

/**
 * The XML body of a request: the declaration, root `xml`, one child element per defined field holding
 * its text; a list field holds one element per entry, named by the singular, with the entry's fields.
 * Throws a `TypeError` when a value is neither a string nor a finite number, is a list under a field
 * that is not a list field or with an entry that is not an object, a name is not a plain element name,
 * or a string holds a character XML cannot carry.
 *
 * @example
 * ```ts
 * import { encodeXmlRequest } from '@topup/envelope';
 *
 * encodeXmlRequest({ reference: 'TXF7K2M9QA' }); // '<?xml version="1.0" encoding="utf-8"?><xml><reference>TXF7K2M9QA</reference></xml>'
 * encodeXmlRequest({ recipients: [{ mobile: '254712345678', amount: 50 }] });
 * // '<?xml version="1.0" encoding="utf-8"?><xml><recipients><recipient><mobile>254712345678</mobile>'
 * // + '<amount>50</amount></recipient></recipients></xml>'
 * ```
 */
export function encodeXmlRequest(fields: RequestFields): string {
  return `${declaration}<xml>${xmlChildren(fields, '')}</xml>`;
}

function xmlChildren(fields: RequestFields, path: string): string {
  const children = definedFields(fields, path).map((field) => {
    const { name } = field;
    if (!elementName.test(name)) {
      throw new TypeError(
        `Expected a plain element name (letters, digits, _ . -) for a request field, received ${JSON.stringify(name)}.`,
      );
    }
    if ('entries' in field) {
      const { entryName } = field;
      const entries = field.entries.map(
        (entry, index) => `<${entryName}>${xmlChildren(entry, `${field.path}[${index}]`)}</${entryName}>`,
      );
      return `<${name}>${entries.join('')}</${name}>`;
    }
    const text = String(field.value);
    const forbidden = firstNonXmlChar(text);
    if (forbidden !== undefined) {
      throw new TypeError(
        `Expected text XML can carry in ${field.path}, received the character ${codePointLabel(forbidden)}.`,
      );
    }
    return `<${name}>${escapeXmlText(text)}</${name}>`;
  });
  return children.join('');
}

function definedFields(fields: RequestFields, path: string): DefinedField[] {
  const defined: DefinedField[] = [];
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const at = path === '' ? name : `${path}.${name}`;
    const entryName = listEntryName(name);
    // Callers from plain JavaScript can pass anything; NaN or an object would be written as nonsense.
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) {
      defined.push({ name, path: at, value });
    } else if (Array.isArray(value) && entryName !== undefined) {
      defined.push({ name, path: at, entries: entriesOf(value, at), entryName });
    } else {
      // A list anywhere else is refused: the server reads an XML element with children as one object,
      // so it could not read it back as the list it was.
      const expected = entryName === undefined ? 'a string or a finite number' : 'a list of entries';
      throw new TypeError(`Expected ${expected} in request field ${at}, received ${describeValue(value)}.`);
    }
  }
  return defined;
}

function entriesOf(list: readonly unknown[], path: string): readonly RequestFields[] {
  for (const [index, entry] of list.entries()) {
    if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
      throw new TypeError(
        `Expected an object of fields in request field ${path}[${index}], received ${describeValue(entry)}.`,
      );
    }
  }
  return list as readonly RequestFields[];
}
