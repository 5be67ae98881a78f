// Problems quote what a caller sent, and that may hold characters XML 1.0 cannot carry (control
// characters, lone surrogates, U+FFFE/U+FFFF). They are written as `\uXXXX`, so every failure can be
// answered in either format.

// Tab, line feed and carriage return are fine; every other C0 control, the two non-characters and any
// surrogate not part of a pair are not.
const notInXml =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point of this pattern
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The text with each character XML cannot carry written as its `\uXXXX` escape. */
export function printableProblem(text: string): string {
  return text.replace(
    notInXml,
    (character) => `\\u${character.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}
