// Numbering plans: per country its dial code, currency, the shape of a mobile number and the
// prefixes that tell which operator a number belongs to. Pure data: adding a country is adding a
// plan to `numberingPlans`; detection and normalisation read nothing else.
//
// Source of the Kenyan prefixes: libphonenumber's carrier data for +254
// (resources/carrier/en/254.txt), reduced to the three operators the service supports.

import type { Carrier, MoneyNetwork } from './networks.js';

/**
 * A mobile operator and the airtime carrier and money network it stands for in the contract.
 *
 * @example
 * ```ts
 * import { numberingPlans, type Operator } from '@topup/validation';
 *
 * const operator: Operator | null | undefined = numberingPlans[0].prefixes['25470'];
 * operator; // { name: 'Safaricom', carrier: 'CarrierA', moneyNetwork: 'MoneyNetA' }
 * ```
 */
export interface Operator {
  readonly name: string;
  readonly carrier: Carrier;
  readonly moneyNetwork: MoneyNetwork;
}

/**
 * A country's numbering plan: what its mobile numbers look like and which prefixes belong to which
 * operator. Detection functions take a list of plans, `numberingPlans` by default.
 *
 * @example
 * ```ts
 * import { detectNetwork, numberingPlans, type NumberingPlan } from '@topup/validation';
 *
 * // A plan of one invented operator, e.g. for tests.
 * const testland: NumberingPlan = {
 *   country: 'KE',
 *   dialCode: '254',
 *   currency: 'KES',
 *   trunkPrefix: '0',
 *   mobileNationalNumber: /^7[0-9]{8}$/,
 *   prefixes: { '2547': { name: 'Testcom', carrier: 'CarrierC', moneyNetwork: 'MoneyNetC' } },
 * };
 * detectNetwork('254712345678', [testland])?.operator; // 'Testcom'
 * detectNetwork('254712345678', numberingPlans)?.operator; // 'Safaricom'
 * ```
 */
export interface NumberingPlan {
  /** ISO 3166-1 alpha-2 code, upper case. */
  readonly country: string;
  /** Country calling code without the plus. */
  readonly dialCode: string;
  /** ISO 4217 code, upper case. */
  readonly currency: string;
  /** Digit that starts a number dialled nationally (`07…`). */
  readonly trunkPrefix: string;
  /** The digits after the dial code of every mobile number of the country. */
  readonly mobileNationalNumber: RegExp;
  /**
   * International prefixes (dial code included), matched by longest prefix. `null` marks a range of
   * no known network inside a longer operator prefix, so that the longest match gives the right answer.
   */
  readonly prefixes: Readonly<Record<string, Operator | null>>;
}

const safaricom: Operator = { name: 'Safaricom', carrier: 'CarrierA', moneyNetwork: 'MoneyNetA' };
const airtel: Operator = { name: 'Airtel', carrier: 'CarrierB', moneyNetwork: 'MoneyNetB' };
const telkom: Operator = { name: 'Telkom', carrier: 'CarrierC', moneyNetwork: 'MoneyNetC' };

const kenya: NumberingPlan = {
  country: 'KE',
  dialCode: '254',
  currency: 'KES',
  trunkPrefix: '0',
  mobileNationalNumber: /^[17][0-9]{8}$/,
  prefixes: {
    '25470': safaricom,
    '25471': safaricom,
    '25472': safaricom,
    '25474': safaricom,
    '254744': null,
    '254747': null,
    '254757': safaricom,
    '254758': safaricom,
    '254759': safaricom,
    '254768': safaricom,
    '254769': safaricom,
    '25479': safaricom,
    '25411': safaricom,
    '25414': safaricom,
    '25418': safaricom,
    '25473': airtel,
    '25475': airtel,
    '254761': airtel,
    '254762': airtel,
    '25478': airtel,
    '25410': airtel,
    '25477': telkom,
    '254120': telkom,
  },
};

/** Every supported country. The first is the home country, the one a national number (`07…`) belongs to. */
export const numberingPlans: readonly [NumberingPlan, ...NumberingPlan[]] = [kenya];
