// Cursor paging: a listing moves forward with the cursor its last page gave, and back to its first page.
// Going back a page at a time would need every earlier cursor; the listings are newest first, so "First
// page" is where people want to go back to.

import { useState } from 'react';

export interface CursorPages {
  /** The cursor of the page shown; undefined on the first page. */
  cursor: string | undefined;
  next: (cursor: string) => void;
  first: () => void;
}

export function useCursorPages(): CursorPages {
  const [cursor, setCursor] = useState<string | undefined>(undefined);
  return {
    cursor,
    next: setCursor,
    first: () => {
      setCursor(undefined);
    },
  };
}

interface PagerProps {
  pages: CursorPages;
  /** The next page's cursor from the page shown; "" or undefined on the last page. */
  nextCursor: string | undefined;
  label: string;
}

export function Pager({ pages, nextCursor, label }: PagerProps) {
  return (
    <nav className="pager" aria-label={label}>
      <button type="button" className="secondary" disabled={pages.cursor === undefined} onClick={pages.first}>
        First page
      </button>
      <button
        type="button"
        className="secondary"
        disabled={nextCursor === undefined || nextCursor === ''}
        onClick={() => {
          if (nextCursor !== undefined) pages.next(nextCursor);
        }}
      >
        Next page
      </button>
    </nav>
  );
}
