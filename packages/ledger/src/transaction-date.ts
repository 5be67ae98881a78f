// `transaction.date`: the request time as `YYYY-MM-DD HH:MM:SS` in the service's time zone.

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
