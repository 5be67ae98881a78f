// Calls a caller API function through the console (POST /console/api/call/<function>), for the
// session's own account or, for an operator, the account named in X-Topup-Account. The answer is the
// API's envelope; a FAIL envelope becomes a ConsoleApiError like any other failure.

import type { CallerFunctionName, CallerFunctions } from './caller-function-types';
import { errorFromAnswer } from './console-api-error';
import type { ConsoleHttp } from './console-http';

interface SuccessEnvelope {
  status: { type: 'SUCCESS'; message: string };
  data: unknown;
}

function isSuccessEnvelope(answer: unknown): answer is SuccessEnvelope {
  if (typeof answer !== 'object' || answer === null || !('status' in answer)) return false;
  const { status } = answer;
  return typeof status === 'object' && status !== null && 'type' in status && status.type === 'SUCCESS';
}

/** A successful answer: the envelope's message and its data. */
export interface FunctionAnswer<D> {
  message: string;
  data: D;
}

export async function callFunction<N extends CallerFunctionName>(
  http: ConsoleHttp,
  name: N,
  request: CallerFunctions[N]['request'],
  /** The account an operator is looking at; undefined for a caller, whose account is the session's. */
  accountId?: string,
): Promise<FunctionAnswer<CallerFunctions[N]['answer']>> {
  const headers = accountId === undefined ? {} : { 'X-Topup-Account': accountId };
  const answer = await http.post<unknown>(`/console/api/call/${name}`, request, { headers });
  if (!isSuccessEnvelope(answer)) throw errorFromAnswer(200, answer);
  return { message: answer.status.message, data: answer.data as CallerFunctions[N]['answer'] };
}
