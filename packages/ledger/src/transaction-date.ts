// Dates in the service's time zone: `transaction.date`, the request time as `YYYY-MM-DD HH:MM:SS`, and
// the instant a listing's `from` or `to` bound names when it is written without an offset.

import type { DateBound } from '@topup/validation';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (formatter === undefined) {
    formatter = new Intl.DateTimeFormat('en-GB', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** Throws a RangeError naming the zone when `timeZone` is not an IANA zone this runtime knows. */
export function assertTimeZone(timeZone: string): void {
  try {
    formatterFor(timeZone);
  } catch {
    throw new RangeError(
      `Expected an IANA time zone such as "Africa/Nairobi", received ${JSON.stringify(timeZone)}.`,
    );
  }
}

// Transactions come many per second: the last text made for each zone is reused within the same second.
const lastFormatted = new Map<string, { second: number; text: string }>();

/** `date` as `YYYY-MM-DD HH:MM:SS` in `timeZone`. */
export function formatTransactionDate(date: Date, timeZone: string): string {
  const second = Math.floor(date.getTime() / 1000);
  const last = lastFormatted.get(timeZone);
  if (last?.second === second) return last.text;
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterFor(timeZone).formatToParts(date)) parts[part.type] = part.value;
  const { year = '', month = '', day = '', hour = '', minute = '', second: seconds = '' } = parts;
  const text = `${year}-${month}-${day} ${hour}:${minute}:${seconds}`;
  lastFormatted.set(timeZone, { second, text });
  return text;
}

type WallClock = Omit<DateBound, 'offsetMinutes'>;

// Date.UTC reads years 0 to 99 as 1900 to 1999; setUTCFullYear takes them as written.
function utcOf(wall: WallClock): number {
  const date = new Date(
    Date.UTC(2000, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond),
  );
  date.setUTCFullYear(wall.year, wall.month - 1, wall.day);
  return date.getTime();
}

// The zone's offset at `instant`, in milliseconds: the wall-clock time it shows then, read as UTC, minus
// the instant.
function zoneOffsetMs(instant: number, timeZone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  const parts: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
  for (const part of formatterFor(timeZone).formatToParts(whole)) parts[part.type] = part.value;
  const shown = (type: Intl.DateTimeFormatPartTypes) => Number(parts[type]);
  const wall = utcOf({
    year: shown('year'),
    month: shown('month'),
    day: shown('day'),
    hour: shown('hour'),
    minute: shown('minute'),
    second: shown('second'),
    millisecond: 0,
  });
  return wall - whole;
}

/**
 * The instant a listing bound names: with an offset, that moment; without one, that wall-clock time in
 * `timeZone`, its offset looked up twice so that a zone whose offset changes gets the one in force then
 * (a time a daylight-saving change skips or repeats gets one of the offsets around it).
 */
export function instantOf(bound: DateBound, timeZone: string): Date {
  const asUtc = utcOf(bound);
  if (bound.offsetMinutes !== undefined) return new Date(asUtc - bound.offsetMinutes * 60_000);
  const first = asUtc - zoneOffsetMs(asUtc, timeZone);
  return new Date(asUtc - zoneOffsetMs(first, timeZone));
}
