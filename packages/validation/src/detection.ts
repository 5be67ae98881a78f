// Queries over the numbering plans: which country and which network a mobile number belongs to, and
// whether a country or currency code is one the service knows. All answers come from the data in
// network-tables.ts.

import type { Carrier, MoneyNetwork } from './networks.js';
import { numberingPlans, type NumberingPlan } from './network-tables.js';

/**
 * A country the service knows: its code, its currency and its calling code.
 *
 * @example
 * ```ts
 * import { findCountry, type CountryInfo } from '@topup/validation';
 *
 * const kenya: CountryInfo | undefined = findCountry('KE');
 * kenya; // { country: 'KE', currency: 'KES', dialCode: '254' }
 * ```
 */
export interface CountryInfo {
  /** ISO 3166-1 alpha-2 code, upper case. */
  readonly country: string;
  /** ISO 4217 code of the country's currency, upper case. */
  readonly currency: string;
  /** Country calling code without the plus. */
  readonly dialCode: string;
}

/**
 * What a mobile number tells: its country and currency, its operator, and the operator's carrier and
 * money network in the contract's names.
 *
 * @example
 * ```ts
 * import { detectNetwork, type DetectedNetwork } from '@topup/validation';
 *
 * const network: DetectedNetwork | undefined = detectNetwork('254733000000');
 * network; // { country: 'KE', currency: 'KES', operator: 'Airtel', carrier: 'CarrierB', moneyNetwork: 'MoneyNetB' }
 * ```
 */
export interface DetectedNetwork {
  readonly country: string;
  readonly currency: string;
  /** Operator name as in the tables, e.g. `Safaricom`. */
  readonly operator: string;
  readonly carrier: Carrier;
  readonly moneyNetwork: MoneyNetwork;
}

function countryInfoOf(plan: NumberingPlan): CountryInfo {
  return { country: plan.country, currency: plan.currency, dialCode: plan.dialCode };
}

function planOfMobile(mobile: string, plans: readonly NumberingPlan[]): NumberingPlan | undefined {
  return plans.find(
    (plan) =>
      mobile.startsWith(plan.dialCode) && plan.mobileNationalNumber.test(mobile.slice(plan.dialCode.length)),
  );
}

/**
 * The country of a mobile number in canonical international form (`254712345678`), or undefined when
 * the number is not a mobile number of a known country.
 *
 * @example
 * ```ts
 * import { detectCountry } from '@topup/validation';
 *
 * detectCountry('254712345678'); // { country: 'KE', currency: 'KES', dialCode: '254' }
 * detectCountry('0712345678'); // undefined: not in international form, see normalizeMobile
 * ```
 */
export function detectCountry(
  mobile: string,
  plans: readonly NumberingPlan[] = numberingPlans,
): CountryInfo | undefined {
  const plan = planOfMobile(mobile, plans);
  return plan === undefined ? undefined : countryInfoOf(plan);
}

/**
 * The country, operator, carrier and money network of a mobile number in canonical international form,
 * found by the longest matching prefix; undefined when the number belongs to no known network.
 *
 * @example
 * ```ts
 * import { detectNetwork, normalizeMobile } from '@topup/validation';
 *
 * detectNetwork('254712345678')?.moneyNetwork; // 'MoneyNetA'
 * detectNetwork(normalizeMobile('0733 000 000') ?? '')?.carrier; // 'CarrierB'
 * ```
 */
export function detectNetwork(
  mobile: string,
  plans: readonly NumberingPlan[] = numberingPlans,
): DetectedNetwork | undefined {
  const plan = planOfMobile(mobile, plans);
  if (plan === undefined) return undefined;
  for (let length = mobile.length; length > plan.dialCode.length; length -= 1) {
    const prefix = mobile.slice(0, length);
    if (!Object.hasOwn(plan.prefixes, prefix)) continue;
    const operator = plan.prefixes[prefix];
    if (operator == null) return undefined;
    return {
      country: plan.country,
      currency: plan.currency,
      operator: operator.name,
      carrier: operator.carrier,
      moneyNetwork: operator.moneyNetwork,
    };
  }
  return undefined;
}

/**
 * The known country with this ISO 3166-1 alpha-2 code (upper case), or undefined.
 *
 * @example
 * ```ts
 * import { findCountry } from '@topup/validation';
 *
 * findCountry('KE')?.currency; // 'KES'
 * findCountry('ke'); // undefined: codes are upper case
 * ```
 */
export function findCountry(
  country: string,
  plans: readonly NumberingPlan[] = numberingPlans,
): CountryInfo | undefined {
  const plan = plans.find((candidate) => candidate.country === country);
  return plan === undefined ? undefined : countryInfoOf(plan);
}

/**
 * Whether some known country uses this ISO 4217 code (upper case).
 *
 * @example
 * ```ts
 * import { isKnownCurrency } from '@topup/validation';
 *
 * isKnownCurrency('KES'); // true
 * isKnownCurrency('USD'); // false
 * ```
 */
export function isKnownCurrency(currency: string, plans: readonly NumberingPlan[] = numberingPlans): boolean {
  return plans.some((plan) => plan.currency === currency);
}
