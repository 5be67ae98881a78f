// Times as people read them. The API gives instants as ISO 8601 in UTC; the console shows them in the
// service's time zone (instant.tsx), in the same `YYYY-MM-DD HH:MM:SS` form and zone the API uses for
// transaction dates, so the two sit side by side in a table without reading differently.

const parts = (timeZone: string | undefined) =>
  new Intl.DateTimeFormat('en-GB', {
    ...(timeZone === undefined ? {} : { timeZone }),
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  });

/** "2025-11-21T11:05:10.000Z" → "2025-11-21 14:05:10" in `timeZone` (the browser's by default). */
export function formatInstant(iso: string, timeZone?: string): string {
  if (iso === '') return '';
  const instant = new Date(iso);
  if (Number.isNaN(instant.getTime())) return iso;
  const field = Object.fromEntries(
    parts(timeZone)
      .formatToParts(instant)
      .map((part) => [part.type, part.value]),
  ) as Record<Intl.DateTimeFormatPartTypes, string>;
  return `${field.year}-${field.month}-${field.day} ${field.hour}:${field.minute}:${field.second}`;
}

/** "84" → "84 ms"; "1250" → "1.25 s"; "" → "". */
export function formatDuration(milliseconds: string): string {
  const value = Number(milliseconds);
  if (milliseconds === '' || !Number.isFinite(value)) return milliseconds;
  return value < 1000 ? `${value} ms` : `${String(Math.round(value / 10) / 100)} s`;
}
