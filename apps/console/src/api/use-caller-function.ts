// React Query bindings of the caller functions, for the account in scope: a read is cached under the
// account, the function and its request.

import { useScopedAccount } from '../auth/account-scope';
import { useConsoleHttp } from '../auth/session-context';
import type { CallerFunctionName, CallerFunctions } from './caller-function-types';
import { callFunction } from './caller-functions';
import { useConsoleChange, useConsoleRead, type ReadOptions } from './use-console-call';

export function useCallerRead<N extends CallerFunctionName>(
  name: N,
  request: CallerFunctions[N]['request'],
  options?: ReadOptions,
) {
  const http = useConsoleHttp();
  const accountId = useScopedAccount();
  return useConsoleRead(
    ['call', accountId ?? '', name, request],
    () => callFunction(http, name, request, accountId),
    options,
  );
}

export function useCallerChange<N extends CallerFunctionName>(name: N) {
  const http = useConsoleHttp();
  const accountId = useScopedAccount();
  return useConsoleChange((request: CallerFunctions[N]['request']) =>
    callFunction(http, name, request, accountId),
  );
}
