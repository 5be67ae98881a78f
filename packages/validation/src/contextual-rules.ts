// Rules of the two transaction operations that look at more than one field or at the server's
// options: country and currency must agree with the recipient's mobile number, the network is
// detected from it when not given, and the amount must lie within the configured bounds.

import { detectCountry, detectNetwork, findCountry, type DetectedNetwork } from './detection.js';
import { numberingPlans, type NumberingPlan } from './network-tables.js';
import type { FieldProblem, ParseOptions } from './request-parser.js';

export interface Place {
  readonly country: string;
  readonly currency: string;
}

export interface Resolved<Value, Field extends string> {
  readonly value: Value | undefined;
  readonly problems: readonly FieldProblem<Field>[];
}

/**
 * The recipient's country and currency. Given values win but must agree: the country with the mobile
 * number's country, the currency with the country's currency. Omitted ones are detected.
 */
export function resolvePlace(
  fields: {
    readonly country?: string | undefined;
    readonly mobile?: string | undefined;
    readonly currency?: string | undefined;
  },
  failed: ReadonlySet<string>,
  plans: readonly NumberingPlan[] = numberingPlans,
): Resolved<Place, 'country' | 'currency'> {
  if (failed.has('country')) return { value: undefined, problems: [] };
  const ofMobile = fields.mobile === undefined ? undefined : detectCountry(fields.mobile, plans);
  const given = fields.country === undefined ? undefined : findCountry(fields.country, plans);
  const problems: FieldProblem<'country' | 'currency'>[] = [];
  if (given !== undefined && ofMobile !== undefined && given.country !== ofMobile.country) {
    problems.push({ field: 'country', kind: 'invalid' });
  }
  const country = given ?? ofMobile;
  if (country === undefined) return { value: undefined, problems };
  if (fields.currency !== undefined && fields.currency !== country.currency) {
    problems.push({ field: 'currency', kind: 'invalid' });
  }
  return { value: { country: country.country, currency: country.currency }, problems };
}

/**
 * The network of the operation: the given one (already checked against `allowed` by its schema) wins
 * over detection; otherwise it is detected from the mobile number, and a number of no known network,
 * or of a network the operation does not allow, makes `network` invalid.
 */
export function resolveNetwork<Network extends string>(
  fields: { readonly network?: Network | undefined; readonly mobile?: string | undefined },
  failed: ReadonlySet<string>,
  networkOf: (detected: DetectedNetwork) => string,
  allowed: readonly Network[],
): Resolved<Network, 'network'> {
  if (failed.has('network')) return { value: undefined, problems: [] };
  if (fields.network !== undefined) return { value: fields.network, problems: [] };
  if (fields.mobile === undefined) return { value: undefined, problems: [] };
  const detected = detectNetwork(fields.mobile);
  const network = allowed.find((candidate) => detected !== undefined && networkOf(detected) === candidate);
  return network === undefined
    ? { value: undefined, problems: [{ field: 'network', kind: 'invalid' }] }
    : { value: network, problems: [] };
}

/** Problems of an amount outside the server's bounds (inclusive). */
export function amountBoundProblems(
  amount: number | undefined,
  options: ParseOptions,
): readonly FieldProblem<'amount'>[] {
  const bounds = options.amount;
  if (amount === undefined || bounds === undefined) return [];
  return amount < bounds.min || amount > bounds.max ? [{ field: 'amount', kind: 'invalid' }] : [];
}
