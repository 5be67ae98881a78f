// `buy_airtime`: the request fields in the spec's order, and its rules between fields. The recipient
// (`mobile`) decides country, currency and carrier; the payer's `payment_network` is never detected.
// The recipient's fields and rules are also each entry of `send_airtime`'s list, so they are defined
// apart from the payer's.

import { z } from 'zod';
import { amountBoundProblems, resolveNetwork, resolvePlace } from './contextual-rules.js';
import {
  boundedText,
  countryCode,
  currencyCode,
  emailAddress,
  maxTextLength,
  mobileNumber,
  wholeAmount,
} from './field-schemas.js';
import { carriers, moneyNetworks } from './networks.js';
import {
  defineRequest,
  parseRequest,
  requestSchema,
  type ParseOptions,
  type ValidationResult,
} from './request-parser.js';

const airtimeRecipientFields = z.object({
  country: countryCode
    .optional()
    .meta({ description: '2-letter ISO code of the recipient; detected if omitted' }),
  network: z.enum(carriers).optional().meta({ description: 'Carrier of the recipient; detected if omitted' }),
  name: boundedText(maxTextLength).optional().meta({ description: 'Recipient name' }),
  mobile: mobileNumber.meta({ description: 'Recipient mobile, country code without plus (2547XXXXXXXX)' }),
  email: emailAddress.optional().meta({ description: 'Recipient e-mail' }),
  currency: currencyCode.optional().meta({ description: '3-letter ISO code; detected if omitted' }),
  amount: wholeAmount.meta({ description: 'Airtime to send, whole units, digits only' }),
});

/** One recipient of airtime, in the spec's field order; its mobile decides country, currency and carrier. */
export const airtimeRecipientDefinition = defineRequest(
  airtimeRecipientFields,
  (fields, { failed, complete, options }) => {
    const place = resolvePlace(fields, failed);
    const network = resolveNetwork(fields, failed, (detected) => detected.carrier, carriers);
    const problems = [...place.problems, ...network.problems, ...amountBoundProblems(fields.amount, options)];
    if (
      complete === undefined ||
      place.value === undefined ||
      network.value === undefined ||
      problems.length > 0
    ) {
      return { ok: false, problems };
    }
    return { ok: true, value: { ...complete, ...place.value, network: network.value } };
  },
);

const buyAirtimeFields = airtimeRecipientFields.extend({
  note: boundedText(maxTextLength).optional().meta({ description: 'Reference, ideally unique' }),
  payment_network: z.enum(moneyNetworks).meta({ description: 'Money network of the payer' }),
  payment_name: boundedText(maxTextLength).optional().meta({ description: 'Payer name' }),
  payment_mobile: mobileNumber.meta({
    description: 'Payer mobile to be prompted, country code without plus',
  }),
  payment_email: emailAddress.optional().meta({ description: 'Payer e-mail' }),
});

// The payer's fields have no rules between them, so the request's rules are the recipient's.
const buyAirtimeDefinition = defineRequest(buyAirtimeFields, (fields, context) => {
  const recipient = airtimeRecipientDefinition.resolve(fields, context);
  if (!recipient.ok) return recipient;
  return context.complete === undefined
    ? { ok: false, problems: [] }
    : { ok: true, value: { ...context.complete, ...recipient.value } };
});

/** Schema of a `buy_airtime` request body; see `requestSchema` for how to use it. */
export const buyAirtimeSchema = requestSchema(buyAirtimeDefinition);

/**
 * A valid `buy_airtime` request: country, currency and carrier resolved, mobiles canonical.
 *
 * @example
 * ```ts
 * import { parseBuyAirtime, type BuyAirtimeRequest } from '@topup/validation';
 *
 * const result = parseBuyAirtime({
 *   mobile: '0712345678',
 *   amount: 50,
 *   payment_network: 'MoneyNetA',
 *   payment_mobile: '0722000000',
 * });
 * if (result.ok) {
 *   const request: BuyAirtimeRequest = result.value;
 *   request.network; // 'CarrierA'
 *   request.payment_mobile; // '254722000000'
 * }
 * ```
 */
export type BuyAirtimeRequest = z.output<typeof buyAirtimeSchema>;
/**
 * What a caller may send to `buy_airtime`; integers as numbers or digit strings.
 *
 * @example
 * ```ts
 * import type { BuyAirtimeInput } from '@topup/validation';
 *
 * const body: BuyAirtimeInput = {
 *   mobile: '254712345678',
 *   amount: '50',
 *   payment_network: 'MoneyNetA',
 *   payment_mobile: '254722000000',
 *   note: 'order 1042',
 * };
 * ```
 */
export type BuyAirtimeInput = z.input<typeof buyAirtimeSchema>;

/**
 * Validates a decoded `buy_airtime` body; failures carry the spec's `3000` strings in field order.
 *
 * @example
 * ```ts
 * import { parseBuyAirtime } from '@topup/validation';
 *
 * const body = {
 *   mobile: '0712345678',
 *   amount: 5,
 *   payment_network: 'MoneyNetA',
 *   payment_mobile: '0722000000',
 * };
 * parseBuyAirtime(body).ok; // true
 * parseBuyAirtime(body, { amount: { min: 10, max: 10_000 } }); // { ok: false, errors: ["'amount is invalid'"] }
 * ```
 */
export function parseBuyAirtime(input: unknown, options?: ParseOptions): ValidationResult<BuyAirtimeRequest> {
  return parseRequest(buyAirtimeDefinition, input, options);
}
