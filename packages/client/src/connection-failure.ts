// Telling from a failed `fetch` whether the request can have reached the service. Only failures while
// connecting prove it did not; anything later (a reset, a dropped connection, a timeout) leaves it open.
// undici reports the system error as the `cause` of its `TypeError: fetch failed`, sometimes wrapped in
// an AggregateError when several addresses were tried.

const neverConnectedCodes = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_NONAME',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Whether a `fetch` rejection shows that no connection was ever made to the service. */
export function neverConnected(error: unknown): boolean {
  return codesOf(error instanceof Error ? error.cause : undefined).some(
    (codes) => codes.length > 0 && codes.every((code) => neverConnectedCodes.has(code)),
  );
}

/** A short text naming the failure for error messages, e.g. `ECONNREFUSED` or `other side closed`. */
export function describeFetchFailure(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const code = codeOf(cause);
  if (cause instanceof Error) return code === undefined ? cause.message : `${code}: ${cause.message}`;
  return error instanceof Error ? error.message : String(error);
}

// One list of codes per way of reading the cause: its own code, or every code of an AggregateError.
function codesOf(cause: unknown): string[][] {
  const own = codeOf(cause);
  const nested = cause instanceof AggregateError ? cause.errors.map(codeOf) : [];
  return [own === undefined ? [] : [own], nested.every((code) => code !== undefined) ? nested : []];
}

function codeOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || !('code' in value)) return undefined;
  return typeof value.code === 'string' ? value.code : undefined;
}
