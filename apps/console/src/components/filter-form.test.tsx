import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ChoiceFilter, DayRangeFilter } from './filter-fields';
import { FilterForm } from './filter-form';
import type { FilteredPages } from './filtered-pages';
import { Pager } from './pager';

const listing: FilteredPages<{ state?: string }> = {
  filters: {},
  pages: { cursor: undefined, next: () => undefined, first: () => undefined },
  request: {},
  apply: () => undefined,
  clear: () => undefined,
};

/** The buttons and links of some markup, in order, by their text. */
function controlsOf(markup: string): string[] {
  return [...markup.matchAll(/<(button|a)\b[^>]*>([^<]*)<\/\1>/g)].map((match) => match[2] ?? '');
}

describe('the filter form', () => {
  it('offers to clear the filters unless told not to, with the screen’s own actions after its buttons', () => {
    const export_ = <a href="/export.csv">Export CSV</a>;
    const clearable = renderToStaticMarkup(
      <FilterForm label="Transaction filters" listing={listing} read={() => ({})} actions={export_}>
        <ChoiceFilter label="State" name="state" choices={['requested']} />
      </FilterForm>,
    );
    expect(controlsOf(clearable)).toEqual(['Apply filters', 'Clear filters', 'Export CSV']);
    expect(clearable).toContain('aria-label="Transaction filters"');

    const fixed = renderToStaticMarkup(
      <FilterForm
        label="Search accounts"
        role="search"
        listing={listing}
        read={() => ({})}
        submitText="Search"
        clearable={false}
      >
        <input name="query" />
      </FilterForm>,
    );
    expect(controlsOf(fixed)).toEqual(['Search']);
    expect(fixed).toContain('role="search"');
  });

  it('starts a choice at Any, which sends nothing, followed by the choices in order', () => {
    const markup = renderToStaticMarkup(
      <ChoiceFilter label="Status" name="status" choices={['pending', 'delivered', 'failed']} />,
    );
    expect(
      [...markup.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)</g)].map((match) => [match[1], match[2]]),
    ).toEqual([
      ['', 'Any'],
      ['pending', 'pending'],
      ['delivered', 'delivered'],
      ['failed', 'failed'],
    ]);
  });

  it('names the day range’s fields from and to, as the listings read them', () => {
    const markup = renderToStaticMarkup(<DayRangeFilter />);
    expect([...markup.matchAll(/<input type="date" name="([^"]+)"/g)].map((match) => match[1])).toEqual([
      'from',
      'to',
    ]);
  });
});

describe('the pager', () => {
  const disabledOf = (markup: string) =>
    [...markup.matchAll(/<button([^>]*)>([^<]*)<\/button>/g)].map(
      (match) => `${match[2] ?? ''}${(match[1] ?? '').includes('disabled') ? ' (disabled)' : ''}`,
    );

  it('cannot go back from the first page, nor on from the last', () => {
    const first = renderToStaticMarkup(<Pager pages={listing.pages} nextCursor="" label="Pages" />);
    expect(disabledOf(first)).toEqual(['First page (disabled)', 'Next page (disabled)']);
    const middle = renderToStaticMarkup(
      <Pager pages={{ ...listing.pages, cursor: 'c1' }} nextCursor="c2" label="Pages" />,
    );
    expect(disabledOf(middle)).toEqual(['First page', 'Next page']);
  });
});
