// Character data in XML, both ways, and which characters XML can carry at all. Writing escapes the five
// markup characters and carriage return; reading decodes exactly the five predefined entities and
// numeric character references. No other entity can exist in what we accept (a DOCTYPE is refused), so
// any other reference is an error, not something to look up. The character rule is public because
// @topup/validation refuses request text by it: whatever is accepted must fit in an XML answer.

// XML 1.0 `Char`: everything else (most C0 controls, U+FFFE, U+FFFF, lone surrogates) cannot appear
// in a document at all, not even as a character reference.
const notXmlChar = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u;

const escapes: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // A parser turns a raw CR (and CRLF) into LF; a reference survives.
  '\r': '&#13;',
};

const predefinedEntities: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

/**
 * The first character XML cannot carry, or undefined when every character of `text` is allowed. XML 1.0
 * allows tab, LF, CR, U+0020 to U+D7FF, U+E000 to U+FFFD and U+10000 up, so this finds NUL, the other
 * C0 controls, U+FFFE, U+FFFF and lone surrogates. One linear pass.
 *
 * @example
 * ```ts
 * import { firstNonXmlChar } from '@topup/envelope';
 *
 * firstNonXmlChar('Jane Wanjiru'); // undefined
 * firstNonXmlChar('a\u0000b'); // '\u0000'
 * ```
 */
export function firstNonXmlChar(text: string): string | undefined {
  return notXmlChar.exec(text)?.[0];
}

/** Where the first character XML cannot carry is in `text` (in UTF-16 code units), or -1. */
export function indexOfNonXmlChar(text: string): number {
  return notXmlChar.exec(text)?.index ?? -1;
}

/**
 * `char` as `U+XXXX`, for messages about a character that cannot be shown as itself.
 *
 * @example
 * ```ts
 * import { codePointLabel, firstNonXmlChar } from '@topup/envelope';
 *
 * codePointLabel(firstNonXmlChar('a\u0001b') ?? ''); // 'U+0001'
 * ```
 */
export function codePointLabel(char: string): string {
  return `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `text` as XML character data: `& < > " '` and CR escaped. The text must hold only XML characters. */
export function escapeXmlText(text: string): string {
  return text.replace(/[&<>"'\r]/g, (char) => escapes[char] ?? char);
}

/** The outcome of decoding references: the text, or the reference that cannot be decoded. */
export type ReferenceDecoding = { ok: true; text: string } | { ok: false; problem: string };

/**
 * Character data with its entity and character references replaced by the characters they stand for.
 * Stops at the first reference that is not one of those.
 */
export function decodeXmlReferences(raw: string): ReferenceDecoding {
  let text = '';
  let copied = 0;
  for (let at = raw.indexOf('&'); at !== -1; at = raw.indexOf('&', copied)) {
    const end = raw.indexOf(';', at);
    const char = end === -1 ? undefined : referencedChar(raw.slice(at + 1, end));
    if (char === undefined) {
      const reference = raw.slice(at, end === -1 ? at + 12 : Math.min(end + 1, at + 12));
      return {
        ok: false,
        problem: `Expected a predefined entity or a character reference, received "${reference}".`,
      };
    }
    text += raw.slice(copied, at) + char;
    copied = end + 1;
  }
  return { ok: true, text: copied === 0 ? raw : text + raw.slice(copied) };
}

function referencedChar(body: string): string | undefined {
  if (Object.hasOwn(predefinedEntities, body)) return predefinedEntities[body];
  const numeric = /^#(?:x([0-9a-fA-F]{1,6})|([0-9]{1,7}))$/.exec(body);
  if (numeric === null) return undefined;
  const [, hex, decimal] = numeric;
  const codePoint = hex === undefined ? Number(decimal) : Number.parseInt(hex, 16);
  if (codePoint > 0x10ffff) return undefined;
  const char = String.fromCodePoint(codePoint);
  return firstNonXmlChar(char) === undefined ? char : undefined;
}
