// The answer a receiver gives the service once it has taken a callback: `SUCCESS`/`0000`/
// `Callback processed`, no `data`, in the format the callback's `Accept` header names (spec, Callback
// response).

import { callbackResponse, encodeJson, encodeXml, negotiateResponse } from '@topup/envelope';

/**
 * An HTTP answer to send back for a callback.
 *
 * @example
 * ```ts
 * import { callbackAnswer, type CallbackAnswer } from '@topup/client';
 *
 * const answer: CallbackAnswer = callbackAnswer('application/json');
 * answer.body; // '{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}'
 * ```
 */
export interface CallbackAnswer {
  readonly status: 200;
  readonly contentType: string;
  readonly body: string;
}

/**
 * The answer to a processed callback, in the format and media type its `Accept` header asks for (JSON
 * by default).
 *
 * @example
 * ```ts
 * import { callbackAnswer } from '@topup/client';
 *
 * callbackAnswer('text/xml').contentType; // 'text/xml; charset=utf-8'
 * callbackAnswer('application/xml').contentType; // 'application/xml; charset=utf-8'
 * callbackAnswer(undefined).contentType; // 'application/json; charset=utf-8'
 * ```
 */
export function callbackAnswer(accept?: string | null): CallbackAnswer {
  const { format, contentType } = negotiateResponse(accept ?? undefined);
  const message = callbackResponse();
  return {
    status: 200,
    contentType,
    body: format === 'xml' ? encodeXml(message) : encodeJson(message),
  };
}
