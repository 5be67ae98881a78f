// The `from` and `to` bounds of the listing functions: an ISO 8601 date or date-time, read into its parts
// and checked against the calendar. The time zone of one without an offset is the service's, which only
// the ledger knows, so the parts are handed on as written and the ledger turns them into an instant.

/**
 * A date or date-time as its text wrote it: a date alone is its first moment, and `offsetMinutes` is
 * undefined when the text gave no offset (a wall-clock time in the service's time zone).
 *
 * @example
 * ```ts
 * import { readDateBound, type DateBound } from '@topup/validation';
 *
 * const bound: DateBound | undefined = readDateBound('2025-11-21T14:05:09+03:00');
 * bound?.offsetMinutes; // 180
 * readDateBound('2025-11-21')?.hour; // 0
 * ```
 */
export interface DateBound {
  readonly year: number;
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  readonly second: number;
  readonly millisecond: number;
  /** Minutes east of UTC (`Z` is 0); undefined for a wall-clock time in the service's time zone. */
  readonly offsetMinutes: number | undefined;
}

// `T`, or the space `transaction.date` is written with, so a date copied from an answer is a bound.
const dateTimeText =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

const monthDays = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysIn(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (monthDays[month - 1] ?? 0);
}

function offsetOf(text: string | undefined): number | undefined | null {
  if (text === undefined) return undefined;
  if (text === 'Z') return 0;
  const hours = Number(text.slice(1, 3));
  const minutes = Number(text.slice(-2));
  if (hours > 23 || minutes > 59) return null;
  return (text.startsWith('-') ? -1 : 1) * (hours * 60 + minutes);
}

/**
 * Reads an ISO 8601 date (`2025-11-21`) or date-time (`2025-11-21T14:05`, `2025-11-21 14:05:09.250`,
 * `2025-11-21T11:05:09Z`, `…+03:00`), or undefined when the text is not one or names a day, hour or
 * offset that does not exist. Fractions of a second count to the millisecond.
 *
 * @example
 * ```ts
 * import { readDateBound } from '@topup/validation';
 *
 * readDateBound('2025-11-21 14:05:09'); // { year: 2025, month: 11, day: 21, hour: 14, minute: 5, second: 9, millisecond: 0, offsetMinutes: undefined }
 * readDateBound('2025-02-29'); // undefined: 2025 is no leap year
 * readDateBound('21/11/2025'); // undefined
 * ```
 */
export function readDateBound(text: string): DateBound | undefined {
  const match = dateTimeText.exec(text);
  if (match === null) return undefined;
  const [, year = '', month = '', day = '', hour = '0', minute = '0', second = '0', fraction = ''] = match;
  const offsetMinutes = offsetOf(match[8]);
  const parts = {
    year: Number(year),
    month: Number(month),
    day: Number(day),
    hour: Number(hour),
    minute: Number(minute),
    second: Number(second),
    millisecond: Number(fraction.slice(0, 3).padEnd(3, '0')),
  };
  const exists =
    parts.year >= 1 &&
    parts.month >= 1 &&
    parts.month <= 12 &&
    parts.day >= 1 &&
    parts.day <= daysIn(parts.year, parts.month) &&
    parts.hour <= 23 &&
    parts.minute <= 59 &&
    parts.second <= 59 &&
    offsetMinutes !== null;
  return exists ? { ...parts, offsetMinutes } : undefined;
}
