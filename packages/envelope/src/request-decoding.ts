// Request bodies, JSON or XML, into a plain object of fields for validation. Decoding never throws: a
// body that cannot be read gives a problem, which the server answers with `1000`. Values are left as
// the wire gave them (XML text stays text, so `<amount>0100</amount>` is "0100"); judging them is the
// validator's work. An empty or whitespace-only body decodes to `{}` in both formats, so a caller who
// sends nothing hears which fields are required (`3000`) rather than that the body is unreadable.

import { readJson, JsonSyntaxError } from './json-syntax.js';
import { requestLimits } from './limits.js';
import { readXml, type XmlElement } from './xml-reading.js';
import { utf8LengthOver } from './utf8-length.js';
import { listEntryName } from './wire-arrays.js';

/**
 * What the request decoders return: the body's fields, or why the body cannot be read (answered `1000`).
 *
 * @example
 * ```ts
 * import { decodeJsonRequest, type DecodeResult } from '@topup/envelope';
 *
 * const decoded: DecodeResult = decodeJsonRequest('[1]');
 * if (!decoded.ok) {
 *   decoded.problem; // 'Expected a JSON object at the top of the body, received a list.'
 * }
 * ```
 */
export type DecodeResult = { ok: true; value: Record<string, unknown> } | { ok: false; problem: string };

// Nothing but an optional byte order mark and whitespace (the four characters JSON and XML agree on).
const blankBody = /^\uFEFF?[ \t\r\n]*$/;

function numberOrExactText(source: string): number | string {
  const value = Number(source);
  return /^(?:0|[1-9]\d*)$/.test(source) && Number.isSafeInteger(value) ? value : source;
}

/**
 * The fields of a JSON request body: an object at the top, each key once, within `requestLimits`.
 * A plain integer token that a double holds exactly becomes a number; any other number token (a
 * decimal, an exponent, a sign, or an integer past 2^53) stays its exact text, so the validator can
 * refuse `1e3` or `100.0` as an amount instead of seeing 1000 or 100.
 *
 * @example
 * ```ts
 * import { decodeJsonRequest } from '@topup/envelope';
 *
 * decodeJsonRequest('{"mobile":"0712345678","amount":500}'); // { ok: true, value: { mobile: '0712345678', amount: 500 } }
 * decodeJsonRequest('{"amount":1e3}'); // { ok: true, value: { amount: '1e3' } }
 * decodeJsonRequest(''); // { ok: true, value: {} }
 * ```
 */
export function decodeJsonRequest(text: string): DecodeResult {
  const oversize = sizeProblem(text);
  if (oversize !== undefined) return { ok: false, problem: oversize };
  if (blankBody.test(text)) return { ok: true, value: {} };
  const body = text.startsWith('\uFEFF') ? text.slice(1) : text;
  let value: unknown;
  try {
    value = readJson(body, {
      maxDepth: requestLimits.maxDepth,
      maxValues: requestLimits.maxNodes,
      number: numberOrExactText,
    });
  } catch (error) {
    if (error instanceof JsonSyntaxError)
      return { ok: false, problem: `Expected valid JSON. ${error.message}` };
    throw error;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    const received = Array.isArray(value) ? 'a list' : value === null ? 'null' : `a ${typeof value}`;
    return { ok: false, problem: `Expected a JSON object at the top of the body, received ${received}.` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * The fields of an XML request body: root element `xml` with one child element per field, each field
 * once. A field's value is its text; an empty element is "". A field with child elements becomes a
 * nested object under the same rules, except a list field (`recipients`), whose children are its entries,
 * each named by the singular (`recipient`), in order. Refuses DOCTYPE, entity definitions, processing instructions and
 * anything over `requestLimits`.
 *
 * @example
 * ```ts
 * import { decodeXmlRequest } from '@topup/envelope';
 *
 * decodeXmlRequest('<xml><amount>0100</amount></xml>'); // { ok: true, value: { amount: '0100' } }
 * decodeXmlRequest('<xml><recipients><recipient><amount>50</amount></recipient></recipients></xml>');
 * // { ok: true, value: { recipients: [{ amount: '50' }] } }
 * decodeXmlRequest('<!DOCTYPE x><xml/>').ok; // false
 * ```
 */
export function decodeXmlRequest(text: string): DecodeResult {
  const oversize = sizeProblem(text);
  if (oversize !== undefined) return { ok: false, problem: oversize };
  if (blankBody.test(text)) return { ok: true, value: {} };
  const reading = readXml(text, requestLimits);
  if (!reading.ok) return reading;
  const { root } = reading;
  if (root.name !== 'xml') {
    return { ok: false, problem: `Expected the root element <xml>, received <${root.name}>.` };
  }
  if (root.children.length === 0 && !blankBody.test(root.text)) {
    return {
      ok: false,
      problem: `Expected one element per field inside <xml>, received text ${JSON.stringify(root.text.slice(0, 40))}.`,
    };
  }
  return fieldsOf(root);
}

function sizeProblem(text: string): string | undefined {
  const bytes = utf8LengthOver(text, requestLimits.maxBytes);
  return bytes === undefined
    ? undefined
    : `Expected a body of at most ${requestLimits.maxBytes} bytes, received ${bytes}.`;
}

function fieldsOf(element: XmlElement): DecodeResult {
  const entries: [string, unknown][] = [];
  const seen = new Set<string>();
  for (const child of element.children) {
    if (seen.has(child.name)) {
      return {
        ok: false,
        problem: `Expected each field once, received <${child.name}> more than once in <${element.name}>.`,
      };
    }
    seen.add(child.name);
    const entryName = listEntryName(child.name);
    if (child.children.length === 0) {
      entries.push([child.name, child.text]);
    } else if (entryName !== undefined) {
      const list = listOf(child, entryName);
      if (!list.ok) return list;
      entries.push([child.name, list.value]);
    } else {
      const nested = fieldsOf(child);
      if (!nested.ok) return nested;
      entries.push([child.name, nested.value]);
    }
  }
  return { ok: true, value: Object.fromEntries(entries) };
}

// A list field (`<recipients>`) holds one element per entry, each named by the singular; an entry with
// fields becomes an object and a bare one its text, so judging each entry stays the validator's work.
function listOf(
  element: XmlElement,
  entryName: string,
): { ok: true; value: unknown[] } | { ok: false; problem: string } {
  const values: unknown[] = [];
  for (const entry of element.children) {
    if (entry.name !== entryName) {
      return {
        ok: false,
        problem: `Expected only <${entryName}> elements in <${element.name}>, received <${entry.name}>.`,
      };
    }
    if (entry.children.length === 0) {
      values.push(entry.text);
      continue;
    }
    const fields = fieldsOf(entry);
    if (!fields.ok) return fields;
    values.push(fields.value);
  }
  return { ok: true, value: values };
}
