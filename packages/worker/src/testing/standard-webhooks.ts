// Test helper: a verifier from the Standard Webhooks reference library (`standardwebhooks`) for an
// endpoint secret (`whsec_…`), to prove our callbacks verify with any Standard Webhooks receiver.

import { Webhook } from 'standardwebhooks';

export function standardWebhook(secret: string): Webhook {
  return new Webhook(secret);
}
