// A caller that keeps retrying one keyed operation until the service answers it, the way a careful
// integrator would: the same Idempotency-Key on every try, retries on a dropped connection, on 503 (store
// unavailable), 429 and on 409 with Retry-After (the key is still being processed). It stands in for
// `@topup/client` in the server's own fault tests, so the server does not depend on a package that is
// itself tested against the server.

import { setTimeout as sleep } from 'node:timers/promises';
import { envelopeOf } from './wire.js';

export interface KeyedAnswer {
  readonly code: string;
  readonly data: Record<string, unknown>;
  readonly attempts: number;
}

export interface KeyedRequest {
  readonly url: string;
  readonly token: string;
  readonly idempotencyKey: string;
  readonly body: Readonly<Record<string, string>>;
  /** Gives up (throws) when no answer came within this long. */
  readonly deadlineMs: number;
}

function retryable(response: Response): boolean {
  if (response.status === 503 || response.status === 429) return true;
  return response.status === 409 && response.headers.has('retry-after');
}

/** Posts the request until it is answered with an envelope that is not a temporary refusal. */
export async function postUntilAnswered(request: KeyedRequest): Promise<KeyedAnswer> {
  const giveUpAt = Date.now() + request.deadlineMs;
  let delayMs = 25;
  for (let attempts = 1; ; attempts += 1) {
    try {
      const response = await fetch(request.url, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${request.token}`,
          'Content-Type': 'application/json',
          'Idempotency-Key': request.idempotencyKey,
        },
        body: JSON.stringify(request.body),
        signal: AbortSignal.timeout(30_000),
      });
      if (!retryable(response)) {
        const envelope = await envelopeOf(response);
        return { code: envelope.status.code, data: envelope.data, attempts };
      }
      await response.body?.cancel();
    } catch (error) {
      if (!(error instanceof TypeError) && !(error instanceof DOMException)) throw error;
    }
    if (Date.now() > giveUpAt) {
      throw new Error(`Expected ${request.idempotencyKey} to be answered within ${request.deadlineMs} ms`);
    }
    await sleep(delayMs * (0.5 + Math.random()));
    delayMs = Math.min(delayMs * 2, 2_000);
  }
}
