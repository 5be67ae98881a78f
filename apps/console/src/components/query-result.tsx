// Renders a query's three moments the same way everywhere: loading, failed, or its data.

import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { ErrorNotice } from './error-notice';

interface QueryResultProps<T> {
  query: UseQueryResult<T>;
  children: (data: T) => ReactNode;
}

export function QueryResult<T>({ query, children }: QueryResultProps<T>) {
  if (query.isPending) return <p role="status">Loading…</p>;
  if (query.isError) return <ErrorNotice error={query.error} />;
  return children(query.data);
}
