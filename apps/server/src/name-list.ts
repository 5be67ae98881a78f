// Names written as an English list in the texts a caller or an operator reads: the keyed functions in a
// `1000` problem and in the OpenAPI document.

/** `a`, `a and b`, `a, b and c`. */
export function listed(names: readonly string[]): string {
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}
