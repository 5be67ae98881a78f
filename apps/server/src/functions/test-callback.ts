// `send_test_callback`: a signed test callback to one of the caller's endpoints, sent at once from the
// server through the worker's own attempt (its URL policy, pinned addresses, signature and deadline),
// with what the endpoint answered. It writes nothing: no delivery, no attempt, no retry. The policy is
// this server's (as at registration), and the refusal's reason goes to the log, never to the caller.

import { success, successMessages } from '@topup/envelope';
import { receiverText } from '@topup/ledger';
import { invalid } from '@topup/validation';
import type { SendTestCallbackRequest } from '@topup/validation';
import { callbackUrlPolicyOf } from '@topup/service';
import { sendTestCallback as sendOne } from '@topup/worker';
import { ApiFailure } from '../api-failure.js';
import type { ApiHandler } from './api-function.js';
import { ok } from './api-function.js';

export const sendTestCallback: ApiHandler<SendTestCallbackRequest> = async ({
  ctx,
  deps,
  account,
  input,
}) => {
  // A removed endpoint is not listed; a disabled one is, and may be tested once its receiver is mended.
  const endpoint = (await deps.ledger.listCallbackEndpoints(account.id)).find(
    (listed) => listed.id === input.endpoint_id,
  );
  if (endpoint === undefined) throw new ApiFailure('3000', [invalid('endpoint_id')]);
  const result = await sendOne({
    endpoint: { id: endpoint.id, url: endpoint.url, format: endpoint.format },
    secrets: () => deps.ledger.endpointSecrets(endpoint.id),
    policy: callbackUrlPolicyOf(deps.config),
    trustedCertificates: deps.config.callbackTrustedCertificates,
  });
  ctx.state.log.info(
    {
      endpointId: endpoint.id,
      outcome: result.outcome,
      ...(result.httpStatus === undefined ? {} : { httpStatus: result.httpStatus }),
      ...(result.refusal === undefined ? {} : { problem: result.refusal }),
    },
    'test callback sent',
  );
  return ok(
    success(successMessages.testCallbackSent, {
      test: {
        endpoint_id: endpoint.id,
        http_status: result.httpStatus === undefined ? '' : String(result.httpStatus),
        duration_ms: String(result.durationMs),
        outcome: result.outcome,
        response_excerpt: receiverText(result.responseExcerpt),
        error: receiverText(result.error ?? ''),
      },
    }),
  );
};
