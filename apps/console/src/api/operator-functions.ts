// Calls an operator function (POST /console/api/operator/<function>), whose answer is `{"data": …}`.

import type { ConsoleHttp } from './console-http';
import type { OperatorFunctionName, OperatorFunctions } from './operator-function-types';

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
