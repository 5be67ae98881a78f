// What every console call's React Query binding does: a read is cached under its key; a change asks for
// the password again when the server wants it, and then refreshes every read on screen, since one change
// can show in several listings.

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useReauthenticated } from '../auth/reauthentication-dialog';

export interface ReadOptions {
  enabled?: boolean;
  /** Keep showing the page on screen while the next page or filter loads. */
  keepPrevious?: boolean;
}

export function useConsoleRead<T>(
  queryKey: readonly unknown[],
  read: () => Promise<T>,
  { enabled = true, keepPrevious = false }: ReadOptions = {},
) {
  return useQuery({
    queryKey,
    queryFn: read,
    enabled,
    ...(keepPrevious ? { placeholderData: keepPreviousData } : {}),
  });
}

export function useConsoleChange<R, T>(change: (request: R) => Promise<T>) {
  const reauthenticated = useReauthenticated();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: R) => reauthenticated(() => change(request)),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
