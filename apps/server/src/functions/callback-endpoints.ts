// Callback endpoint functions: add (the secret is shown only in this answer), list (never secrets, and
// why a disabled endpoint was disabled), remove, and rotate the secret (the old one stays valid for the
// grace period).

import { success, successMessages } from '@topup/envelope';
import { callbackEndpointView, LedgerError } from '@topup/ledger';
import { invalid } from '@topup/validation';
import type {
  AddCallbackEndpointRequest,
  RemoveCallbackEndpointRequest,
  RotateCallbackSecretRequest,
} from '@topup/validation';
import { checkCallbackUrl } from '@topup/worker';
import { ApiFailure } from '../api-failure.js';
import { callbackUrlPolicyOf } from '@topup/service';
import type { ApiHandler } from './api-function.js';
import { ok } from './api-function.js';

export const addCallbackEndpoint: ApiHandler<AddCallbackEndpointRequest> = async ({
  ctx,
  deps,
  account,
  input,
}) => {
  // Checked again at every delivery, since a name may resolve elsewhere later.
  const check = await checkCallbackUrl(input.url, callbackUrlPolicyOf(deps.config));
  if (!check.ok) {
    // The contract's 3000 strings carry no reason; the operator finds it in the log.
    ctx.state.log.info({ problem: check.problem }, 'callback URL refused');
    throw new ApiFailure('3000', [invalid('url')]);
  }
  const maxEndpoints = deps.config.callbackMaxEndpoints;
  const { endpoint, secret } = await deps.ledger
    .addCallbackEndpoint(
      account.id,
      {
        url: input.url,
        format: input.format,
        ...(input.description === undefined ? {} : { description: input.description }),
      },
      { maxEndpoints },
    )
    .catch((error: unknown) => {
      if (error instanceof LedgerError && error.code === 'endpoint_limit_reached') {
        throw new ApiFailure('5000', [
          `an account may have at most ${String(maxEndpoints)} callback endpoints; remove one to add another`,
        ]);
      }
      throw error;
    });
  return ok(
    success(successMessages.callbackEndpointAdded, {
      endpoint: { ...callbackEndpointView(endpoint), secret },
    }),
  );
};

export const listCallbackEndpoints: ApiHandler<unknown> = async ({ deps, account }) => {
  const endpoints = await deps.ledger.listCallbackEndpoints(account.id);
  return ok(
    success(successMessages.callbackEndpointsFound, { endpoints: endpoints.map(callbackEndpointView) }),
  );
};

export const removeCallbackEndpoint: ApiHandler<RemoveCallbackEndpointRequest> = async ({
  deps,
  account,
  input,
}) => {
  const removed = await deps.ledger.removeCallbackEndpoint(account.id, input.endpoint_id);
  if (!removed) throw new ApiFailure('3000', [invalid('endpoint_id')]);
  return ok(success(successMessages.callbackEndpointRemoved, { endpoint: { id: input.endpoint_id } }));
};

export const rotateCallbackSecret: ApiHandler<RotateCallbackSecretRequest> = async ({
  deps,
  account,
  input,
}) => {
  const secret = await deps.ledger.rotateCallbackSecret(
    account.id,
    input.endpoint_id,
    deps.config.callbackSecretGraceSeconds,
  );
  if (secret === undefined) throw new ApiFailure('3000', [invalid('endpoint_id')]);
  return ok(
    success(successMessages.callbackSecretRotated, {
      endpoint: {
        id: input.endpoint_id,
        secret,
        previous_secret_valid_for: String(deps.config.callbackSecretGraceSeconds),
      },
    }),
  );
};
