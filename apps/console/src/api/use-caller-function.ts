// React Query bindings of the caller functions, for the account in scope: a read is cached under the
// account, the function and its request; a change asks for the password again when the server wants
// it, and then refreshes every read on screen, since one change can show in several listings.

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useScopedAccount } from '../auth/account-scope';
import { useReauthenticated } from '../auth/reauthentication-dialog';
import { useConsoleHttp } from '../auth/session-context';
import type { CallerFunctionName, CallerFunctions } from './caller-function-types';
import { callFunction } from './caller-functions';

export interface ReadOptions {
  enabled?: boolean;
  /** Keep showing the page on screen while the next page or filter loads. */
  keepPrevious?: boolean;
}

export function useCallerRead<N extends CallerFunctionName>(
  name: N,
  request: CallerFunctions[N]['request'],
  { enabled = true, keepPrevious = false }: ReadOptions = {},
) {
  const http = useConsoleHttp();
  const accountId = useScopedAccount();
  return useQuery({
    queryKey: ['call', accountId ?? '', name, request],
    queryFn: () => callFunction(http, name, request, accountId),
    enabled,
    ...(keepPrevious ? { placeholderData: keepPreviousData } : {}),
  });
}

export function useCallerChange<N extends CallerFunctionName>(name: N) {
  const http = useConsoleHttp();
  const accountId = useScopedAccount();
  const reauthenticated = useReauthenticated();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: CallerFunctions[N]['request']) =>
      reauthenticated(() => callFunction(http, name, request, accountId)),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
