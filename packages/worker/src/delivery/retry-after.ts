// Reading a receiver's `Retry-After` header: delay-seconds or an HTTP date (RFC 9110 section 10.2.3).

/**
 * The seconds a `Retry-After` value asks for, measured from `now`; `undefined` when absent or unreadable.
 * A date in the past asks for no wait.
 */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  // Only HTTP dates (which always name a weekday) are read, not every string Date.parse accepts.
  if (!/^[A-Za-z]{3},/.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
