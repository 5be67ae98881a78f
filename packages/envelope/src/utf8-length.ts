// Body sizes are limited in UTF-8 bytes, as they travel; counting them here rather than with Node's
// Buffer keeps the package usable wherever the client runs (browsers, edge runtimes).

/** The number of bytes `text` takes in UTF-8 (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index += 1) {
    const unit = text.charCodeAt(index);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && isLowSurrogate(text.charCodeAt(index + 1))) {
      bytes += 4;
      index += 1;
    } else bytes += 3;
  }
  return bytes;
}

/**
 * The number of bytes `text` takes in UTF-8 when that is more than `limit`; undefined when it is not.
 * A UTF-16 unit is at most 3 bytes, so a text no longer than a third of the limit is not counted.
 */
export function utf8LengthOver(text: string, limit: number): number | undefined {
  if (text.length * 3 <= limit) return undefined;
  const bytes = utf8Length(text);
  return bytes > limit ? bytes : undefined;
}

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
