// Reading the `Retry-After` header the service sends with 429, 503 and a 409 for a keyed request still
// in progress. RFC 9110 allows whole seconds or an HTTP date; the service sends seconds, proxies may
// send either.

const delaySeconds = /^\d+$/;
// IMF-fixdate and the obsolete RFC 850 form; Date.parse alone would take "-1" or "1.5" for dates.
const httpDate = /^[A-Za-z]{3,9}, [ 0-9A-Za-z:-]+ GMT$/;

/**
 * The wait a `Retry-After` value asks for, in whole seconds (never negative), or undefined when the
 * header is absent or is neither a number of seconds nor an HTTP date. A date is measured from `now`.
 */
export function retryAfterSeconds(
  header: string | null | undefined,
  now: Date = new Date(),
): number | undefined {
  const value = header?.trim();
  if (value === undefined || value === '') return undefined;
  if (delaySeconds.test(value)) return Number(value);
  const at = httpDate.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - now.getTime()) / 1000));
}
