// Turns what a filter form holds into what a request carries: fields left blank are not sent at all, so
// "no filter" never reaches the server as an empty string it would have to interpret.

/** The fields of `filters` that hold something, trimmed. */
export function filledIn<T extends object>(filters: T): Partial<T> {
  const filled: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters)) {
    if (typeof value === 'string' && value.trim() !== '') filled[key] = value.trim();
  }
  return filled as Partial<T>;
}

/** A query string (with its `?`, or "" when nothing is filled in) of the filled-in fields. */
export function queryString(filters: object): string {
  const query = new URLSearchParams(filledIn(filters) as Record<string, string>).toString();
  return query === '' ? '' : `?${query}`;
}
