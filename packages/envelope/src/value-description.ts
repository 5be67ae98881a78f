// How the encoders and decoders name a value they did not expect, in their error messages.

/** A short description of `value` for "expected …, received …" messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (typeof value === 'string') {
    return value.length > 40
      ? `the string ${JSON.stringify(value.slice(0, 40))}…`
      : `the string ${JSON.stringify(value)}`;
  }
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return `the ${typeof value} ${value}`;
  }
  return `a ${typeof value}`;
}
