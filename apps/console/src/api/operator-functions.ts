// Calls an operator function (POST /console/api/operator/<function>), whose answer is `{"data": …}`. What
// each takes and answers is the operator catalog's (@topup/operators/catalog), read as types only.

import type { OperatorFunctionName, OperatorFunctions } from '@topup/operators/catalog';
import type { ConsoleHttp } from './console-http';

export async function callOperator<N extends OperatorFunctionName>(
  http: ConsoleHttp,
  name: N,
  request: OperatorFunctions[N]['request'],
): Promise<OperatorFunctions[N]['answer']> {
  const answer = await http.post<{ data: OperatorFunctions[N]['answer'] }>(
    `/console/api/operator/${name}`,
    request,
  );
  return answer.data;
}
