// Reading XML we did not write into a small element tree, safely. Before the text reaches
// fast-xml-parser linear scans enforce the limits and refuse what has no place in our bodies:
// characters XML cannot carry (fast-xml-parser lets them through, and a NUL would reach the database),
// DOCTYPE and other markup declarations (so no entity definitions, no expansion, no external
// entities), processing instructions other than a leading XML declaration, the element names
// fast-xml-parser would refuse in words of its own (`__proto__`, `constructor`, `prototype`), nesting
// past the depth limit (a 10,000-deep document would exhaust the parser's stack) and too many elements.
// The parser then checks well-formedness and yields an ordered tree; entities stay raw there and are
// decoded here.

import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { DecodingLimits } from './limits.js';
import { readSimpleXml } from './xml-simple-reading.js';
import { codePointLabel, decodeXmlReferences, indexOfNonXmlChar } from './xml-text.js';
import { utf8LengthOver } from './utf8-length.js';

/** One element: either a leaf with text, or an element with child elements (and no text of its own). */
export interface XmlElement {
  readonly name: string;
  readonly children: readonly XmlElement[];
  /** The decoded character data of a leaf; empty for an element with children. */
  readonly text: string;
}

export type XmlReading = { ok: true; root: XmlElement } | { ok: false; problem: string };

const byteOrderMark = '\uFEFF';
const xmlDeclaration = /^<\?xml[\s?]/;
// Sticky: the name of the start tag whose `<` is just before `lastIndex`.
const startTagName = /[^ \t\r\n/>]*/y;
const reservedNames: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  parseTagValue: false,
  trimValues: false,
  processEntities: false,
  htmlEntities: false,
  cdataPropName: '#cdata',
});

/**
 * The root element of an XML text, or the first problem found: over a limit, a character XML cannot
 * carry, forbidden markup, not well-formed, text outside elements, or an undecodable reference. Never
 * throws.
 */
export function readXml(source: string, limits: DecodingLimits): XmlReading {
  const bytes = utf8LengthOver(source, limits.maxBytes);
  if (bytes !== undefined) {
    return {
      ok: false,
      problem: `Expected an XML body of at most ${limits.maxBytes} bytes, received ${bytes}.`,
    };
  }
  const text = source.startsWith(byteOrderMark) ? source.slice(1) : source;
  const forbiddenAt = indexOfNonXmlChar(text);
  if (forbiddenAt !== -1) {
    const char = codePointLabel(text.charAt(forbiddenAt));
    return {
      ok: false,
      problem: `Expected only characters XML can carry, received ${char} at character ${forbiddenAt + 1}.`,
    };
  }
  const refusal = scanMarkup(text, limits);
  if (refusal !== undefined) return { ok: false, problem: refusal };
  const simple = readSimpleXml(text);
  return simple === undefined ? readWithParser(text) : { ok: true, root: simple };
}

/**
 * The full reader, for text that passed the scans: fast-xml-parser checks well-formedness and yields the
 * tree. Exported for the tests that hold the fast path (xml-simple-reading) to the same results.
 */
export function readWithParser(text: string): XmlReading {
  // Deprecated in favour of the separate fast-xml-validator package, which is not a dependency; this is
  // the same validator, still shipped and maintained in fast-xml-parser 5.
  // eslint-disable-next-line @typescript-eslint/no-deprecated
  const validation = XMLValidator.validate(text);
  if (validation !== true) {
    const { msg, line, col } = validation.err;
    return {
      ok: false,
      problem: `Expected well-formed XML, received an error at line ${line}, column ${col}: ${msg}`,
    };
  }
  let nodes: unknown;
  try {
    nodes = parser.parse(text);
  } catch (error) {
    return { ok: false, problem: `Expected XML that can be read, received: ${(error as Error).message}` };
  }
  try {
    const { elements } = readContent(nodes, 'the document');
    const [root] = elements;
    if (root === undefined || elements.length > 1) {
      return { ok: false, problem: `Expected exactly one root element, received ${elements.length}.` };
    }
    return { ok: true, root };
  } catch (error) {
    if (error instanceof XmlShapeError) return { ok: false, problem: error.message };
    throw error;
  }
}

/** The first reason to refuse `text` before parsing it, or undefined. Linear in the length of `text`. */
function scanMarkup(text: string, limits: DecodingLimits): string | undefined {
  let depth = 0;
  let elements = 0;
  let index = text.indexOf('<');
  while (index !== -1) {
    let end: number;
    if (text.startsWith('<!--', index)) {
      end = closeOf(text, '-->', index + 4);
    } else if (text.startsWith('<![CDATA[', index)) {
      end = closeOf(text, ']]>', index + 9);
    } else if (text.startsWith('<!', index)) {
      return /^<!DOCTYPE/i.test(text.slice(index, index + 9))
        ? 'Expected no DOCTYPE declaration (DTDs and entity definitions are refused), received one.'
        : `Expected no markup declarations, received "${text.slice(index, index + 10)}".`;
    } else if (text.startsWith('<?', index)) {
      if (index !== 0 || !xmlDeclaration.test(text.slice(0, 6))) {
        return `Expected no processing instruction other than a leading XML declaration, received "${text.slice(index, index + 20)}".`;
      }
      end = closeOf(text, '?>', index + 2);
    } else if (text.startsWith('</', index)) {
      depth -= 1;
      end = closeOf(text, '>', index + 2);
    } else {
      startTagName.lastIndex = index + 1;
      const name = startTagName.exec(text)?.[0] ?? '';
      if (reservedNames.has(name)) {
        return `Expected XML element names that are not __proto__, constructor or prototype, received <${name}>.`;
      }
      end = endOfStartTag(text, index + 1);
      elements += 1;
      if (elements > limits.maxNodes) return `Expected at most ${limits.maxNodes} elements, received more.`;
      if (text[end - 2] !== '/') {
        depth += 1;
        if (depth > limits.maxDepth) {
          return `Expected elements nested at most ${limits.maxDepth} deep, received deeper nesting.`;
        }
      }
    }
    // An unterminated construct is left for the validator to report precisely.
    if (end === -1) return undefined;
    index = text.indexOf('<', end);
  }
  return undefined;
}

/** The index just past `terminator` at or after `from`, or -1. */
function closeOf(text: string, terminator: string, from: number): number {
  const at = text.indexOf(terminator, from);
  return at === -1 ? -1 : at + terminator.length;
}

/** The index just past the `>` closing a start tag, skipping quoted attribute values; -1 if none. */
function endOfStartTag(text: string, from: number): number {
  let index = from;
  while (index < text.length) {
    const char = text[index];
    if (char === '>') return index + 1;
    if (char === '"' || char === "'") {
      const close = text.indexOf(char, index + 1);
      if (close === -1) return -1;
      index = close + 1;
    } else {
      index += 1;
    }
  }
  return -1;
}

class XmlShapeError extends Error {}

interface Content {
  readonly elements: XmlElement[];
  readonly text: string;
}

const xmlWhitespace = /^[ \t\r\n]*$/;

/**
 * The content of an element (or of the document) from fast-xml-parser's ordered output, a list of
 * one-key objects keyed by a tag name, `#text` or `#cdata`. Text between child elements may only be
 * whitespace (indentation); comments are already gone, CDATA is kept verbatim.
 */
function readContent(nodes: unknown, where: string): Content {
  const elements: XmlElement[] = [];
  let text = '';
  let significantText = false;
  for (const node of asNodeList(nodes)) {
    const [name, value] = onlyEntry(node);
    if (name === '#text') {
      const raw = String(value);
      const decoded = decodeXmlReferences(raw);
      if (!decoded.ok) throw new XmlShapeError(decoded.problem);
      text += decoded.text;
      significantText ||= !xmlWhitespace.test(raw);
    } else if (name === '#cdata') {
      const verbatim = asNodeList(value)
        .map((piece) => String(onlyEntry(piece)[1]))
        .join('');
      text += verbatim;
      significantText ||= verbatim !== '';
    } else {
      const content = readContent(value, `<${name}>`);
      const children = content.elements;
      elements.push({ name, children, text: children.length > 0 ? '' : content.text });
    }
  }
  if (elements.length > 0 && significantText) {
    throw new XmlShapeError(
      `Expected only elements inside ${where}, received text ${JSON.stringify(text.trim().slice(0, 40))}.`,
    );
  }
  return { elements, text };
}

function asNodeList(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

function onlyEntry(node: unknown): [string, unknown] {
  const entries = typeof node === 'object' && node !== null ? Object.entries(node) : [];
  const [entry] = entries;
  if (entry === undefined) throw new XmlShapeError('Expected an element or text, received an empty node.');
  return entry;
}
