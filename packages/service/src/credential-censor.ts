// Censors credentials in what is about to be logged: a key named authorization, token, secret or secrets,
// at any of the first levels of a logged object, has its value replaced. Pino's own `redact` option did
// this before, but it re-parses its paths and copies each value for every key of every line (an eighth of
// all the API server's allocation under load); this walks the object once and copies only the parts on
// the way to a credential, so an ordinary line allocates nothing.

const credentialKeys: ReadonlySet<string> = new Set(['authorization', 'token', 'secret', 'secrets']);

/** What a censored value is logged as. */
export const censoredValue = '[redacted]';

// Deep enough for the deepest place a credential has been logged from (`req.headers.authorization`), and
// bounded so that logging a large structure costs no more than a few levels of it.
const deepestLevel = 3;

function isWalkable(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value) || value instanceof Error) return true;
  // Buffers, dates and other instances are logged by their own rules, and never carry a credential key.
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

// An error is copied with its prototype, message and stack, so its serializer still sees an error.
function copyOf(value: Record<string, unknown>): Record<string, unknown> {
  if (Array.isArray(value)) return [...value] as unknown as Record<string, unknown>;
  if (value instanceof Error) {
    return Object.create(
      Object.getPrototypeOf(value) as object,
      Object.getOwnPropertyDescriptors(value),
    ) as Record<string, unknown>;
  }
  return { ...value };
}

function censorLevel(value: Record<string, unknown>, level: number): Record<string, unknown> {
  let copy: Record<string, unknown> | undefined;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const original = value[key];
    let replaced = original;
    if (credentialKeys.has(key)) replaced = censoredValue;
    else if (level < deepestLevel && isWalkable(original)) replaced = censorLevel(original, level + 1);
    if (replaced !== original) {
      copy ??= copyOf(value);
      // Defined rather than assigned: a property copied from an error may be read-only.
      Object.defineProperty(copy, key, {
        value: replaced,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
  }
  return copy ?? value;
}

/**
 * `object` with every credential's value replaced by `censoredValue`, or `object` itself when it holds
 * none. The object given is never changed.
 *
 * @example
 * censorCredentials({ headers: { authorization: 'Bearer tp_…' }, path: '/v1' });
 * // { headers: { authorization: '[redacted]' }, path: '/v1' }
 */
export function censorCredentials(object: Record<string, unknown>): Record<string, unknown> {
  return censorLevel(object, 1);
}
