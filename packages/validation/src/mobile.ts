// Mobile-number normalisation: every accepted way of writing a number becomes the canonical
// international form the contract uses, country code without plus (`254712345678`).

import { detectCountry } from './detection.js';
import { numberingPlans } from './network-tables.js';

// Digit groups separated by one space or dash, optionally after a leading plus. ASCII digits only:
// `\d` without the `u` flag would also be ASCII-only, but `[0-9]` says so plainly.
const writtenNumber = /^\+?[0-9]+(?:[ -][0-9]+)*$/;

function internationalForm(digits: string): string | undefined {
  return detectCountry(digits) === undefined ? undefined : digits;
}

function fromNationalForm(digits: string): string | undefined {
  const [home] = numberingPlans;
  if (!digits.startsWith(home.trunkPrefix)) return undefined;
  const nationalNumber = digits.slice(home.trunkPrefix.length);
  return home.mobileNationalNumber.test(nationalNumber) ? home.dialCode + nationalNumber : undefined;
}

/**
 * The canonical form (`2547XXXXXXXX` / `2541XXXXXXXX`) of a mobile number, or undefined when the input
 * is not a mobile number of a known country.
 *
 * Accepted: a safe integer in international form (`254712345678`), or a string `07…`, `01…`, `254…` or
 * `+254…` whose digit groups may be separated by single spaces or dashes. Anything else (letters,
 * non-ASCII digits, other country codes, wrong lengths, surrounding characters) is rejected.
 *
 * @example
 * ```ts
 * import { normalizeMobile } from '@topup/validation';
 *
 * normalizeMobile('0712345678'); // '254712345678'
 * normalizeMobile('+254 712-345-678'); // '254712345678'
 * normalizeMobile(254712345678); // '254712345678'
 * normalizeMobile('0712 34567'); // undefined
 * ```
 */
export function normalizeMobile(input: unknown): string | undefined {
  if (typeof input === 'number') {
    return Number.isSafeInteger(input) && input > 0 ? internationalForm(String(input)) : undefined;
  }
  if (typeof input !== 'string' || !writtenNumber.test(input)) return undefined;
  const digits = input.replace(/[ +-]/g, '');
  if (input.startsWith('+')) return internationalForm(digits);
  return internationalForm(digits) ?? fromNationalForm(digits);
}
