// The form above a listing: its fields are read when it is submitted, and applying or clearing them shows
// the listing's first page again.

import type { ReactNode } from 'react';
import type { FilteredPages } from './filtered-pages';
import { formFields } from './form-fields';

interface FilterFormProps<F extends object> {
  label: string;
  listing: FilteredPages<F>;
  /** The filters the fields hold, given a reader of the fields by name. */
  read: (field: (name: string) => string) => F;
  submitText?: string;
  /** A "Clear filters" button puts the listing back as it started. */
  clearable?: boolean;
  /** More actions beside the buttons, such as an export of what the filters show. */
  actions?: ReactNode;
  role?: 'search';
  children: ReactNode;
}

export function FilterForm<F extends object>({
  label,
  listing,
  read,
  submitText = 'Apply filters',
  clearable = true,
  actions,
  role,
  children,
}: FilterFormProps<F>) {
  return (
    <form
      className="filters"
      role={role}
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        listing.apply(read(formFields(event.currentTarget)));
      }}
      onReset={clearable ? listing.clear : undefined}
    >
      {children}
      <div className="actions">
        <button type="submit">{submitText}</button>
        {clearable && (
          <button type="reset" className="secondary">
            Clear filters
          </button>
        )}
        {actions}
      </div>
    </form>
  );
}
