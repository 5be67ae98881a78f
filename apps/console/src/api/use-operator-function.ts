// React Query bindings of the operator functions: reads cached by function and request.

import type { OperatorFunctionName, OperatorFunctions } from '@topup/operators/catalog';
import { useConsoleHttp } from '../auth/session-context';
import { callOperator } from './operator-functions';
import { useConsoleChange, useConsoleRead, type ReadOptions } from './use-console-call';

export function useOperatorRead<N extends OperatorFunctionName>(
  name: N,
  request: OperatorFunctions[N]['request'],
  options?: ReadOptions,
) {
  const http = useConsoleHttp();
  return useConsoleRead(['operator', name, request], () => callOperator(http, name, request), options);
}

export function useOperatorChange<N extends OperatorFunctionName>(name: N) {
  const http = useConsoleHttp();
  return useConsoleChange((request: OperatorFunctions[N]['request']) => callOperator(http, name, request));
}
