// What the fake Daraja does with a payment prompt, chosen by the last four digits of the payer's number,
// so a test (or anyone running the service against the fakes) can ask for each result code and for each
// way Daraja's callbacks are known to misbehave: twice, before the acknowledgement, late, lost (only STK
// Query knows), or never (the prompt stays open); a prompt whose acknowledgement is lost; a paid callback
// that contradicts the prompt (another Amount, another PhoneNumber); and STK Query answers that settle
// nothing at first (an undocumented ResultCode, or "being processed" after the prompt ended) before the
// real result.

/** How a prompt's result reaches us. */
export type StkDelivery = 'once' | 'twice' | 'before_ack' | 'late' | 'lost' | 'never';

/**
 * A prompt's scripted end: its result code and how the callback comes.
 *
 * @example
 * ```ts
 * import { stkScriptFor } from '@topup/providers/fakes';
 *
 * stkScriptFor('254708371032'); // { resultCode: 1032, delivery: 'once' }
 * ```
 */
export interface StkScript {
  readonly resultCode: number | string;
  readonly delivery: StkDelivery;
  /**
   * `lost`: the prompt is made and ends as scripted, but the connection drops before its acknowledgement,
   * so the caller cannot know whether it was taken.
   */
  readonly ack?: 'lost';
  /** A paid callback's Amount, in place of the prompt's: a payment that contradicts what was asked. */
  readonly callbackAmount?: number;
  /** A paid callback's PhoneNumber, in place of the payer's: a payment from someone else. */
  readonly callbackPhone?: number;
  /**
   * What STK Query answers the first time it is asked after the prompt ended, before it answers the
   * result: an undocumented ResultCode, or Daraja's "being processed" error.
   */
  readonly firstQuery?: { readonly resultCode: string } | 'processing';
}

const scripts: Readonly<Record<string, StkScript>> = {
  '0001': { resultCode: 1, delivery: 'once' },
  '0017': { resultCode: 17, delivery: 'once' },
  '1032': { resultCode: 1032, delivery: 'once' },
  '1037': { resultCode: 1037, delivery: 'once' },
  '2001': { resultCode: 2001, delivery: 'once' },
  '0003': { resultCode: 'SFC_IC0003', delivery: 'once' },
  '9001': { resultCode: 0, delivery: 'twice' },
  '9002': { resultCode: 0, delivery: 'before_ack' },
  '9003': { resultCode: 0, delivery: 'lost' },
  '9004': { resultCode: 0, delivery: 'never' },
  '9005': { resultCode: 0, delivery: 'late' },
  '9006': { resultCode: 0, delivery: 'once', ack: 'lost' },
  '9007': { resultCode: 0, delivery: 'once', callbackAmount: 1 },
  '9008': { resultCode: 0, delivery: 'once', callbackPhone: 254700000009 },
  '9009': { resultCode: 0, delivery: 'lost', firstQuery: { resultCode: '4999' } },
  '9010': { resultCode: 0, delivery: 'lost', firstQuery: 'processing' },
};

/** The script for a payer's number: by its last four digits, a payment made once otherwise. */
export function stkScriptFor(phone: string): StkScript {
  return scripts[phone.slice(-4)] ?? { resultCode: 0, delivery: 'once' };
}
