// A listing read to its end: each page's `next_cursor` asks for the next page, with the same filters,
// until it comes back empty. Pages are fetched one at a time as the caller reads, so a caller who stops
// early (`break`) fetches no more.

/** What every listing page carries: the cursor of the next page, empty on the last one. */
export interface ListingPage {
  readonly next_cursor: string;
}

/**
 * The entries of every page from `input` on, in the order the service lists them. A `cursor` in `input`
 * starts from that page.
 * @throws Error when the service answers a page with the cursor that asked for it, which would never end.
 */
export async function* allEntries<
  I extends { readonly cursor?: string | undefined },
  P extends ListingPage,
  E,
>(
  input: I,
  fetchPage: (input: I) => Promise<P>,
  entriesOf: (page: P) => readonly E[],
): AsyncGenerator<E, void, undefined> {
  let cursor = input.cursor;
  for (;;) {
    const page = await fetchPage(cursor === undefined ? input : { ...input, cursor });
    yield* entriesOf(page);
    if (page.next_cursor === '') return;
    if (page.next_cursor === cursor) {
      throw new Error(`Expected a new next_cursor from the service, received the same one again: ${cursor}.`);
    }
    cursor = page.next_cursor;
  }
}
