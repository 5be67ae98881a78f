// What the fake Daraja does with a B2B payment (agent float), chosen by the last four digits of PartyB, the
// agent's store number, so a test (or anyone running the service against the fakes) can ask for each
// failure an adapter must tell apart and for each way Daraja's Results are known to misbehave: twice,
// before the acknowledgement, late, lost (only Transaction Status knows), or never (the payment stays
// open); a code that settles nothing (17, internal failure); and a paid Result that contradicts the request
// (another Amount, another receiver).

import type { StkDelivery } from './fake-stk-scripts.js';

/**
 * A B2B payment's scripted end: the Result's code and description, and how the Result comes.
 *
 * @example
 * ```ts
 * import { b2bScriptFor } from '@topup/providers/fakes';
 *
 * b2bScriptFor('600011'); // { resultCode: 11, resultDesc: 'The DebitParty is in an invalid state.', delivery: 'once' }
 * ```
 */
export interface B2bScript {
  readonly resultCode: number | string;
  readonly resultDesc: string;
  readonly delivery: StkDelivery;
  /** Whether M-Pesa moved the money, whatever the Result's code says; by default, when it is 0. */
  readonly madePayment?: boolean;
  /** A paid Result's Amount (and Transaction Status's), in place of the request's. */
  readonly resultAmount?: number;
  /** A paid Result's ReceiverPartyPublicName short code, in place of PartyB. */
  readonly receiverParty?: string;
}

const processed = 'The service request is processed successfully.';
const paid = (delivery: StkDelivery): B2bScript => ({ resultCode: 0, resultDesc: processed, delivery });

const scripts: Readonly<Record<string, B2bScript>> = {
  '2001': { resultCode: 2001, resultDesc: 'The initiator information is invalid.', delivery: 'once' },
  '0011': { resultCode: 11, resultDesc: 'The DebitParty is in an invalid state.', delivery: 'once' },
  '0001': { resultCode: 1, resultDesc: 'The balance is insufficient for the transaction.', delivery: 'once' },
  '9001': paid('twice'),
  '9002': paid('before_ack'),
  '9003': paid('lost'),
  '9004': paid('never'),
  '9005': paid('late'),
  // The Result says 17, which settles nothing; the money did move, as Transaction Status then says.
  '0017': { resultCode: 17, resultDesc: 'Internal Failure', delivery: 'once', madePayment: true },
  '9007': { ...paid('once'), resultAmount: 1 },
  '9008': { ...paid('once'), receiverParty: '000009' },
};

/**
 * The script for a B2B payment's PartyB: by its last four digits, a payment made once otherwise.
 *
 * @example
 * ```ts
 * import { b2bScriptFor } from '@topup/providers/fakes';
 *
 * b2bScriptFor('609003').delivery; // 'lost'
 * b2bScriptFor('600000').resultCode; // 0
 * ```
 */
export function b2bScriptFor(partyB: string): B2bScript {
  return scripts[partyB.slice(-4)] ?? paid('once');
}
