// The fast path of reading XML: the documents callers actually send (an optional XML declaration, then
// elements with plain names, no attributes, text or child elements, no comments, CDATA or self-closing
// tags) read in one pass. Anything else, and anything this reader is unsure of, is left to the full reader
// (fast-xml-parser's validator and parser, twice as many passes and five times the time), which gives the
// same tree for every document this one accepts and words every refusal.

import type { XmlElement } from './xml-reading.js';
import { decodeXmlReferences } from './xml-text.js';

// A subset of XML names: plain ASCII, so that this reader and the full one cannot disagree on a name.
const plainName = /[A-Za-z_][A-Za-z0-9._-]*/y;
const leadingDeclaration = /^<\?xml[ \t\r\n][^?]*\?>/;

interface OpenElement {
  readonly name: string;
  readonly children: XmlElement[];
  /** Where its content starts, for a leaf's text. */
  readonly contentStart: number;
}

function isXmlWhitespace(text: string, from: number, to: number): boolean {
  for (let at = from; at < to; at += 1) {
    const code = text.charCodeAt(at);
    if (code !== 0x20 && code !== 0x09 && code !== 0x0a) return false;
  }
  return true;
}

/**
 * The root element of a simple document, or undefined when the text is not one (the full reader then
 * decides). The caller has already refused characters XML cannot carry and enforced the limits.
 */
export function readSimpleXml(text: string): XmlElement | undefined {
  // Carriage returns are left to the full reader, which knows how XML normalises line ends.
  if (text.includes('\r')) return undefined;
  let index = leadingDeclaration.exec(text)?.[0].length ?? 0;
  const open: OpenElement[] = [];
  let root: XmlElement | undefined;
  for (;;) {
    const tagAt = text.indexOf('<', index);
    if (tagAt === -1) {
      return open.length === 0 && root !== undefined && isXmlWhitespace(text, index, text.length)
        ? root
        : undefined;
    }
    const parent = open.at(-1);
    if (text.charCodeAt(tagAt + 1) === 0x2f /* / */) {
      // A close tag: ends a leaf (its text is everything since its start tag) or an element of elements.
      if (parent === undefined) return undefined;
      const nameEnd = tagAt + 2 + parent.name.length;
      if (!text.startsWith(parent.name, tagAt + 2) || text.charCodeAt(nameEnd) !== 0x3e /* > */) {
        return undefined;
      }
      let element: XmlElement;
      if (parent.children.length === 0) {
        const decoded = decodeXmlReferences(text.slice(parent.contentStart, tagAt));
        if (!decoded.ok) return undefined;
        element = { name: parent.name, children: parent.children, text: decoded.text };
      } else {
        if (!isXmlWhitespace(text, index, tagAt)) return undefined;
        element = { name: parent.name, children: parent.children, text: '' };
      }
      open.pop();
      const grandparent = open.at(-1);
      if (grandparent === undefined) {
        if (root !== undefined) return undefined;
        root = element;
      } else {
        grandparent.children.push(element);
      }
      index = nameEnd + 1;
      continue;
    }
    // A start tag: only text-free whitespace may come before it, and only inside an element or at the top.
    if (!isXmlWhitespace(text, index, tagAt)) return undefined;
    if (parent === undefined && root !== undefined) return undefined;
    plainName.lastIndex = tagAt + 1;
    const name = plainName.exec(text)?.[0];
    if (name === undefined) return undefined;
    const nameEnd = tagAt + 1 + name.length;
    if (text.charCodeAt(nameEnd) !== 0x3e /* > */) return undefined;
    open.push({ name, children: [], contentStart: nameEnd + 1 });
    index = nameEnd + 1;
  }
}
