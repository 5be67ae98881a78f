// The date range of a listing as people pick it: from one day to another, both days included. The API's
// `to` is exclusive (before that moment), so a picked last day is sent as the day after it; a date
// without a time is read by the server in the service's time zone, like the transactions' own dates.

const isoDate = /^(\d{4})-(\d{2})-(\d{2})$/;

/** "2025-11-30" → "2025-12-01"; anything that is not a date is returned as it is. */
export function dayAfter(date: string): string {
  const match = isoDate.exec(date);
  if (match === null) return date;
  const [, year = '', month = '', day = ''] = match;
  return new Date(Date.UTC(Number(year), Number(month) - 1, Number(day) + 1)).toISOString().slice(0, 10);
}

/** The `from` and `to` to send for the days picked (either may be blank). */
export function wholeDays(from: string, to: string): { from: string; to: string } {
  return { from, to: to === '' ? '' : dayAfter(to) };
}
