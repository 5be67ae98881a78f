// The test callback `send_test_callback` sends from the server: a signed `Test callback` envelope (no
// transaction) in the endpoint's format, posted once, at once, through the same attempt as every real
// callback (the URL policy, the pinned addresses, the signature, the deadline), and reported as that
// attempt's record would show it. Nothing is written: it is no delivery, and it is never retried.

import { randomBytes } from 'node:crypto';
import { encodeJson, testCallback } from '@topup/envelope';
import type { CallbackFormat } from '@topup/envelope';
import type { CallbackUrlPolicy } from '../callback-url-policy.js';
import { CALLBACK_TIMEOUT_MS } from '../worker-settings.js';
import { attemptRecord } from './attempt-record.js';
import { prepareCallbackAttempt } from './callback-attempt.js';
import { CallbackHttpClient } from './post-callback.js';

export interface TestCallbackInput {
  readonly endpoint: { readonly id: string; readonly url: string; readonly format: CallbackFormat };
  /** The endpoint's secrets, current first and the previous one during a rotation, as real callbacks use. */
  readonly secrets: () => Promise<readonly string[]>;
  readonly policy: CallbackUrlPolicy;
  /** PEM certificates trusted for https receivers besides Node's own list (CALLBACK_CA_FILE). */
  readonly trustedCertificates?: readonly string[];
  /** Deadline of the POST; the worker's callback deadline unless given. */
  readonly timeoutMs?: number;
}

/**
 * What the endpoint made of the test, as callers may see it: `delivered` for a 2xx answer, else `failed`.
 * A receiver that is not public shows its status only, as in the delivery record.
 */
export interface TestCallbackResult {
  readonly outcome: 'delivered' | 'failed';
  readonly httpStatus?: number;
  readonly durationMs: number;
  readonly responseExcerpt: string;
  readonly error?: string;
  /** Why the URL policy refused the URL, for the operator's log only. */
  readonly refusal?: string;
}

/** Sends one test callback and reports what came of it; throws only when the secrets cannot be read. */
export async function sendTestCallback(input: TestCallbackInput): Promise<TestCallbackResult> {
  const client = new CallbackHttpClient({
    maxSocketsPerHost: 1,
    trustedCertificates: input.trustedCertificates ?? [],
  });
  try {
    const prepared = await prepareCallbackAttempt(
      {
        url: input.endpoint.url,
        format: input.endpoint.format,
        payload: encodeJson(testCallback(input.endpoint.id, new Date())),
        // Its own webhook-id, so a receiver that keeps ids never takes a test for a delivery it has seen.
        id: `test_${randomBytes(12).toString('base64url')}`,
      },
      {
        policy: input.policy,
        secrets: input.secrets,
        client,
        timeoutMs: input.timeoutMs ?? CALLBACK_TIMEOUT_MS,
      },
    );
    const attempt = prepared.ready ? await prepared.send() : prepared.attempt;
    const { result } = attempt;
    const delivered = result.kind === 'answered' && result.status >= 200 && result.status < 300;
    return {
      outcome: delivered ? 'delivered' : 'failed',
      durationMs: result.durationMs,
      ...attemptRecord(result, attempt.receiverIsPublic),
      ...(attempt.refusal === undefined ? {} : { refusal: attempt.refusal }),
    };
  } finally {
    client.close();
  }
}
