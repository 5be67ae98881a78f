// What an Africa's Talking answer says was delivered, as evidence for the ledger to compare with what was
// asked: the recipient's number (written `+2547…`, kept as `2547…` like ours) and the value sent
// (`KES 100.0000`). What it does not say, or says in a form that cannot be compared, is left out.

import type { ResultEvidence } from '../provider.js';
import { minorUnitsOfPriced } from '../minor-units.js';

/**
 * The evidence of one recipient's status, from its phone number and value as AT wrote them.
 *
 * @example
 * ```ts
 * import { airtimeEvidence } from './airtime-evidence.js';
 *
 * airtimeEvidence('+254711082300', 'KES 100.0000'); // { mobile: '254711082300', amountMinor: 10_000n }
 * ```
 */
export function airtimeEvidence(
  phoneNumber: string | undefined,
  value: string | undefined,
): ResultEvidence | undefined {
  const mobile = phoneNumber?.trim().replace(/^\+/, '');
  const amountMinor = minorUnitsOfPriced(value);
  const evidence: ResultEvidence = {
    ...(mobile !== undefined && /^[\d*]+$/.test(mobile) ? { mobile } : {}),
    ...(amountMinor === undefined ? {} : { amountMinor }),
  };
  return Object.keys(evidence).length === 0 ? undefined : evidence;
}
