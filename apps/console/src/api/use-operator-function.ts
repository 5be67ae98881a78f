// React Query bindings of the operator functions: reads cached by function and request; changes asking
// for the password again when the server wants it, then refreshing every read on screen.

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useReauthenticated } from '../auth/reauthentication-dialog';
import { useConsoleHttp } from '../auth/session-context';
import type { OperatorFunctionName, OperatorFunctions } from './operator-function-types';
import { callOperator } from './operator-functions';
import type { ReadOptions } from './use-caller-function';

export function useOperatorRead<N extends OperatorFunctionName>(
  name: N,
  request: OperatorFunctions[N]['request'],
  { enabled = true, keepPrevious = false }: ReadOptions = {},
) {
  const http = useConsoleHttp();
  return useQuery({
    queryKey: ['operator', name, request],
    queryFn: () => callOperator(http, name, request),
    enabled,
    ...(keepPrevious ? { placeholderData: keepPreviousData } : {}),
  });
}

export function useOperatorChange<N extends OperatorFunctionName>(name: N) {
  const http = useConsoleHttp();
  const reauthenticated = useReauthenticated();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (request: OperatorFunctions[N]['request']) =>
      reauthenticated(() => callOperator(http, name, request)),
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
