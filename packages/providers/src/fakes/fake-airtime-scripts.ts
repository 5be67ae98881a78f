// What the fake Africa's Talking does with an airtime recipient it has sent, chosen by the last four digits
// of the recipient's number, so a test (or anyone running the service against the fakes) can ask for each
// carrier failure an adapter must tell apart and for each way status callbacks are known to misbehave:
// twice, before the send is answered, late, lost (only the transaction query knows), or never (the
// recipient stays Sent); and a recipient refused at once because the airtime wallet cannot pay for it.
// 0005 means what it means to the sandbox simulator (sandbox-outcomes.ts), so the number fails after
// payment against either.

import type { StkDelivery } from './fake-stk-scripts.js';

/**
 * An airtime recipient's scripted end: the status and description its callback carries, and how the
 * callback comes (`before_ack`: POSTed before the send is answered).
 *
 * @example
 * ```ts
 * import { airtimeScriptFor, type AirtimeScript } from '@topup/providers/fakes';
 *
 * const script: AirtimeScript = airtimeScriptFor('+254711080006');
 * script.description; // 'Insufficient balance in the airtime wallet'
 * ```
 */
export interface AirtimeScript {
  readonly outcome: 'Success' | 'Failed';
  readonly description: string;
  readonly delivery: StkDelivery;
  /** Refused in the send's answer with this errorMessage, instead of sent. */
  readonly refusal?: string;
}

const delivered = (delivery: StkDelivery): AirtimeScript => ({
  outcome: 'Success',
  description: 'Success',
  delivery,
});

const scripts: Readonly<Record<string, AirtimeScript>> = {
  // The sandbox's 0005, "fails after payment": the money has left the wallet, the carrier did not credit.
  '0005': { outcome: 'Failed', description: 'Failed to deliver airtime: carrier error', delivery: 'once' },
  '0006': { outcome: 'Failed', description: 'Insufficient balance in the airtime wallet', delivery: 'once' },
  // Refused at once: the airtime wallet cannot pay for the send (the low-wallet warning's case).
  '0007': {
    outcome: 'Failed',
    description: 'Insufficient Credit',
    delivery: 'once',
    refusal: 'Insufficient Credit',
  },
  '9001': delivered('twice'),
  '9002': delivered('before_ack'),
  '9003': delivered('lost'),
  '9004': delivered('never'),
  '9005': delivered('late'),
};

/**
 * The script for a recipient's number: by its last four digits, delivered once otherwise.
 *
 * @example
 * ```ts
 * import { airtimeScriptFor } from '@topup/providers/fakes';
 *
 * airtimeScriptFor('+254711080005'); // { outcome: 'Failed', description: 'Failed to deliver airtime: carrier error', delivery: 'once' }
 * airtimeScriptFor('+254711089003').delivery; // 'lost'
 * airtimeScriptFor('+254711082300').outcome; // 'Success'
 * ```
 */
export function airtimeScriptFor(phone: string): AirtimeScript {
  return scripts[phone.slice(-4)] ?? delivered('once');
}
