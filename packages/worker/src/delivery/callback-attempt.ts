// One signed callback attempt, from URL to answer: the URL checked against the callback URL policy (its
// host resolved, every address judged), the body encoded in the endpoint's format and signed with its
// secrets, and one POST to the checked addresses (never resolved again) within one deadline. The
// dispatcher makes every delivery attempt with it, and the server's test callback its one attempt, so a
// test meets exactly the rules a real callback meets.

import { performance } from 'node:perf_hooks';
import type { CallbackFormat } from '@topup/envelope';
import { checkCallbackUrl } from '../callback-url-policy.js';
import type { CallbackUrlPolicy } from '../callback-url-policy.js';
import { buildCallbackRequest } from './callback-request.js';
import type { CallbackRequest } from './callback-request.js';
import type { CallbackHttpClient, CallbackPostResult } from './post-callback.js';

/** What callers read of an attempt the address policy refused; the operator's log says why. */
const URL_REFUSED = 'callback URL refused by the callback URL policy';

export interface CallbackAttemptTarget {
  readonly url: string;
  readonly format: CallbackFormat;
  /** The callback envelope as JSON text. */
  readonly payload: string;
  /** The `webhook-id`. */
  readonly id: string;
}

export interface CallbackAttemptOptions {
  readonly policy: CallbackUrlPolicy;
  /** The endpoint's secrets, current first; asked for only once the URL passed the policy. */
  readonly secrets: () => Promise<readonly string[]>;
  readonly client: CallbackHttpClient;
  /** Deadline of the POST: connect, send, and read the answer. */
  readonly timeoutMs: number;
}

/** One attempt's result, and whether its receiver's answers may be shown to the caller. */
export interface SentAttempt {
  readonly result: CallbackPostResult;
  readonly receiverIsPublic: boolean;
  /** Why the policy refused the URL, for the operator's log: callers read only that it was refused. */
  readonly refusal?: string;
}

/**
 * An attempt made ready to send, signed with this moment's timestamp; or one that ended before it could
 * be sent (a URL the policy refuses, a body that cannot be signed), with its result.
 */
export type PreparedAttempt =
  | { readonly ready: true; send(): Promise<SentAttempt> }
  | { readonly ready: false; readonly attempt: SentAttempt };

/**
 * Checks the URL, then signs the request; `send` POSTs it to the checked addresses. Never throws for the
 * receiver's faults, each of which is a result; a failure to read the secrets is the store's, not the
 * receiver's, and escapes.
 */
export async function prepareCallbackAttempt(
  target: CallbackAttemptTarget,
  options: CallbackAttemptOptions,
): Promise<PreparedAttempt> {
  const started = performance.now();
  const ended = (error: string, refusal?: string): PreparedAttempt => ({
    ready: false,
    attempt: {
      result: { kind: 'failed', durationMs: Math.round(performance.now() - started), error },
      receiverIsPublic: true,
      ...(refusal === undefined ? {} : { refusal }),
    },
  });
  const check = await checkCallbackUrl(target.url, options.policy);
  // How the host resolved is the operator's to know: told to callers, it would map names and networks.
  if (!check.ok) return ended(URL_REFUSED, check.problem);
  const secrets = await options.secrets();
  let request: CallbackRequest;
  try {
    request = buildCallbackRequest({
      payload: target.payload,
      format: target.format,
      secrets,
      deliveryId: target.id,
      timestamp: Math.floor(Date.now() / 1000),
    });
  } catch (error) {
    return ended(`callback could not be prepared: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    ready: true,
    async send() {
      const result = await options.client.post({
        url: check.url,
        addresses: check.addresses,
        headers: request.headers,
        body: request.body,
        timeoutMs: options.timeoutMs,
      });
      return { result, receiverIsPublic: check.public };
    },
  };
}
