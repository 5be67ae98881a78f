import express from 'express';
import type { Express } from 'express';
import { CallbackVerificationError, callbackAnswer, parseCallback } from '@topup/client';
import type { CallbackEvent } from '@topup/client';

/**
 * An Express app that takes callbacks at `POST /topup/callbacks`: it verifies each one against the
 * endpoint's secrets, hands the event to `onEvent`, and answers only once that succeeded.
 */
export function expressCallbackApp(
  secrets: readonly string[],
  onEvent: (event: CallbackEvent) => Promise<void>,
): Express {
  const app = express();
  // express.raw keeps the body as the exact bytes received (none at all: no Buffer), and answers 413
  // to one over 1 MiB: a callback is a few kilobytes.
  app.post('/topup/callbacks', express.raw({ type: () => true, limit: '1mb' }), async (req, res) => {
    const rawBody: unknown = req.body;
    let event: CallbackEvent;
    try {
      event = parseCallback(Buffer.isBuffer(rawBody) ? rawBody : Buffer.alloc(0), req.headers, secrets);
    } catch (error) {
      if (!(error instanceof CallbackVerificationError)) throw error;
      res.sendStatus(400);
      return;
    }
    // Express 5 answers 500 when this rejects, and the service delivers the callback again later.
    await onEvent(event);
    const answer = callbackAnswer(req.get('Accept'));
    res.status(answer.status).type(answer.contentType).send(answer.body);
  });
  return app;
}
