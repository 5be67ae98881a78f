// A listing's filters and the page of it shown. New filters, or none, start again from the first page;
// the request a screen reads carries the filters with the shown page's cursor.

import { useState } from 'react';
import { useCursorPages, type CursorPages } from './pager';

export interface FilteredPages<F extends object> {
  readonly filters: F;
  readonly pages: CursorPages;
  /** The filters, with the cursor of the page shown. */
  readonly request: F & { cursor?: string };
  apply: (filters: F) => void;
  /** Back to the filters the listing started with. */
  clear: () => void;
}

export function useFilteredPages<F extends object>(initial: F): FilteredPages<F> {
  const [filters, setFilters] = useState<F>(initial);
  const pages = useCursorPages();
  const apply = (next: F) => {
    setFilters(next);
    pages.first();
  };
  return {
    filters,
    pages,
    request: { ...filters, ...(pages.cursor === undefined ? {} : { cursor: pages.cursor }) },
    apply,
    clear: () => {
      apply(initial);
    },
  };
}
