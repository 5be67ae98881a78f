// Reading provider JSON as it comes rather than as documented: numbers sent as strings and strings as
// numbers, a list of one sent as the bare object, fields missing. Each reader answers undefined for what
// it cannot use, and the caller decides whether that field was needed.

/** A JSON object's own fields, or undefined when the value is not an object. */
export function objectOf(value: unknown): Readonly<Record<string, unknown>> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/** A list, when sent as one; a single object, when sent bare in its place; empty when absent. */
export function listOf(value: unknown): readonly unknown[] {
  if (Array.isArray(value)) return value;
  return value === undefined || value === null ? [] : [value];
}

/** A string or a finite number, as text; undefined for anything else. */
export function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

/** JSON text parsed, or undefined when it is not JSON (an HTML error page, an empty body). */
export function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
