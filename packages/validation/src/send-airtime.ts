// `send_airtime`: a list of airtime recipients paid from the caller's Airtime balance, and a note. Each
// entry is `buy_airtime`'s recipient, with its rules; this file owns the list: its bounds, and naming
// an entry's problems by its position so that every problem of every entry is reported.

import { z } from 'zod';
import { airtimeRecipientDefinition } from './buy-airtime.js';
import { boundedText, maxTextLength } from './field-schemas.js';
import {
  bodyField,
  defineRequest,
  fieldsAsRequest,
  isAbsent,
  isFieldObject,
  problemMessage,
  requestSchema,
  resolveRequest,
  type FieldProblem,
  type ParseOptions,
  type Resolution,
  type ValidationResult,
} from './request-parser.js';

/**
 * Most recipients one `send_airtime` request may list.
 *
 * @example
 * ```ts
 * import { maxRecipients, parseSendAirtime } from '@topup/validation';
 *
 * const recipient = { mobile: '0712345678', amount: 50 };
 * parseSendAirtime({ recipients: Array(maxRecipients + 1).fill(recipient) }); // { ok: false, errors: ["'recipients is invalid'"] }
 * ```
 */
export const maxRecipients = 1000;

const recipientSchema = requestSchema(airtimeRecipientDefinition);

/**
 * Schema of a `send_airtime` request body; see `requestSchema` for how to use it. Its JSON Schema
 * bounds `recipients` with `minItems` and `maxItems`.
 *
 * @example
 * ```ts
 * import { sendAirtimeSchema } from '@topup/validation';
 * import { z } from 'zod';
 *
 * const schema = z.toJSONSchema(sendAirtimeSchema, { io: 'input' });
 * schema.required; // ['recipients']
 * ```
 */
export const sendAirtimeSchema = z.object({
  recipients: z
    .array(recipientSchema)
    .min(1)
    .max(maxRecipients)
    .meta({ description: `Recipients to send airtime to, 1 to ${maxRecipients}; a mobile may repeat` }),
  note: boundedText(maxTextLength).optional().meta({ description: 'Reference, ideally unique' }),
});

// The engine names problems by field only, so the list is checked here, entry by entry; the rest of
// the body goes through the engine.
const restDefinition = defineRequest(sendAirtimeSchema.omit({ recipients: true }), fieldsAsRequest);

/**
 * A valid `send_airtime` request: 1 to `maxRecipients` recipients, each resolved, and the note.
 *
 * @example
 * ```ts
 * import { parseSendAirtime, type SendAirtimeRequest } from '@topup/validation';
 *
 * const result = parseSendAirtime({
 *   recipients: [
 *     { mobile: '0712345678', amount: 50 },
 *     { mobile: '+254 771 234 567', amount: '100', name: 'Achieng' },
 *   ],
 *   note: 'staff airtime, March',
 * });
 * if (result.ok) {
 *   const request: SendAirtimeRequest = result.value;
 *   request.recipients.map((recipient) => recipient.network); // ['CarrierA', 'CarrierC']
 * }
 * ```
 */
export type SendAirtimeRequest = z.output<typeof sendAirtimeSchema>;
/**
 * One recipient of a valid `send_airtime` request: mobile canonical, country, currency and carrier
 * resolved.
 *
 * @example
 * ```ts
 * import { parseSendAirtime, type SendAirtimeRecipient } from '@topup/validation';
 *
 * const result = parseSendAirtime({ recipients: [{ mobile: '0733123456', amount: '20' }] });
 * if (result.ok) {
 *   const recipients: SendAirtimeRecipient[] = result.value.recipients;
 *   recipients[0]; // { mobile: '254733123456', amount: 20, country: 'KE', currency: 'KES', network: 'CarrierB' }
 * }
 * ```
 */
export type SendAirtimeRecipient = SendAirtimeRequest['recipients'][number];
/**
 * What a caller may send to `send_airtime`; integers as numbers or digit strings.
 *
 * @example
 * ```ts
 * import type { SendAirtimeInput } from '@topup/validation';
 *
 * const body: SendAirtimeInput = {
 *   recipients: [
 *     { mobile: '254712345678', amount: 50 },
 *     { mobile: '254731234567', amount: '20', network: 'CarrierB', email: 'otieno@example.com' },
 *   ],
 *   note: 'order 1043',
 * };
 * ```
 */
export type SendAirtimeInput = z.input<typeof sendAirtimeSchema>;

function resolveRecipients(raw: unknown, options: ParseOptions): Resolution<SendAirtimeRecipient[], string> {
  if (isAbsent(raw) || (Array.isArray(raw) && raw.length === 0)) {
    return { ok: false, problems: [{ field: 'recipients', kind: 'required' }] };
  }
  // Refused as a whole, entries unchecked: the caller must split the list anyway, and checking an
  // unbounded list would be unbounded work.
  if (!Array.isArray(raw) || raw.length > maxRecipients) {
    return { ok: false, problems: [{ field: 'recipients', kind: 'invalid' }] };
  }
  const entries: readonly unknown[] = raw;
  const recipients: SendAirtimeRecipient[] = [];
  const problems: FieldProblem[] = [];
  for (const [index, entry] of entries.entries()) {
    const position = `recipients[${index}]`;
    // The engine would read a non-object as an entry with no fields, all of them then required.
    if (!isFieldObject(entry)) {
      problems.push({ field: position, kind: 'invalid' });
      continue;
    }
    const recipient = resolveRequest(airtimeRecipientDefinition, entry, options);
    if (recipient.ok) {
      recipients.push(recipient.value);
    } else {
      problems.push(
        ...recipient.problems.map(({ field, kind }) => ({ field: `${position}.${field}`, kind })),
      );
    }
  }
  return problems.length === 0 ? { ok: true, value: recipients } : { ok: false, problems };
}

/**
 * Validates a decoded `send_airtime` body. Failures carry the spec's `3000` strings, each recipient's
 * fields named by the entry's position from 0 (`'recipients[2].mobile is invalid'`): entry by entry,
 * each in `buy_airtime`'s field order, then `note`. Amount bounds in `options` apply to every entry.
 *
 * @example
 * ```ts
 * import { parseSendAirtime } from '@topup/validation';
 *
 * parseSendAirtime({ recipients: [{ mobile: '0712345678', amount: 50 }] }).ok; // true
 * const options = { amount: { min: 10, max: 10_000 } };
 * const recipients = [{ mobile: '0712345678', amount: 5 }, { amount: 'x' }, 'no'];
 * parseSendAirtime({ recipients, note: false }, options);
 * // { ok: false, errors: ["'recipients[0].amount is invalid'", "'recipients[1].mobile is required.'",
 * //   "'recipients[1].amount is invalid'", "'recipients[2] is invalid'", "'note is invalid'"] }
 * ```
 */
export function parseSendAirtime(
  input: unknown,
  options: ParseOptions = {},
): ValidationResult<SendAirtimeRequest> {
  const recipients = resolveRecipients(bodyField(input, 'recipients'), options);
  const rest = resolveRequest(restDefinition, input, options);
  if (recipients.ok && rest.ok) return { ok: true, value: { recipients: recipients.value, ...rest.value } };
  const problems = [...(recipients.ok ? [] : recipients.problems), ...(rest.ok ? [] : rest.problems)];
  return { ok: false, errors: problems.map(problemMessage) };
}
