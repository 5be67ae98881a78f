// `send_agent_float`: the request fields in the spec's order, and its rules between fields.

import { z } from 'zod';
import { amountBoundProblems, resolveNetwork, resolvePlace } from './contextual-rules.js';
import {
  boundedText,
  countryCode,
  currencyCode,
  emailAddress,
  maxTextLength,
  mobileNumber,
  networkIssuedNumber,
  wholeAmount,
} from './field-schemas.js';
import { agentFloatNetworks, type AgentFloatNetwork, type MoneyNetwork } from './networks.js';
import {
  defineRequest,
  parseRequest,
  requestSchema,
  type FieldProblem,
  type ParseOptions,
  type ValidationResult,
} from './request-parser.js';

/** Networks whose agents are identified by agent and store numbers (spec: required for `MoneyNetA`). */
export const networksRequiringAgentNumbers: readonly MoneyNetwork[] = ['MoneyNetA'];

const sendAgentFloatFields = z.object({
  country: countryCode
    .optional()
    .meta({ description: '2-letter ISO code of the agent; detected if omitted' }),
  network: z.enum(agentFloatNetworks).optional().meta({ description: 'Money network; detected if omitted' }),
  name: boundedText(maxTextLength).optional().meta({ description: 'Contact name of the agent' }),
  mobile: mobileNumber.meta({ description: 'Contact mobile, country code without plus (2547XXXXXXXX)' }),
  email: emailAddress.optional().meta({ description: 'Contact e-mail' }),
  agent_name: boundedText(maxTextLength)
    .optional()
    .meta({ description: 'Agent name as issued by the network' }),
  agent_number: networkIssuedNumber
    .optional()
    .meta({ description: 'Agent number as issued by the network; required for MoneyNetA' }),
  store_number: networkIssuedNumber
    .optional()
    .meta({ description: 'Store number as issued by the network; required for MoneyNetA' }),
  currency: currencyCode.optional().meta({ description: '3-letter ISO code; detected if omitted' }),
  amount: wholeAmount.meta({ description: 'Float to send, whole units, digits only' }),
  note: boundedText(maxTextLength).optional().meta({ description: 'Reference, ideally unique' }),
});

type AgentNumberField = 'agent_number' | 'store_number';

function agentNumberProblems(
  network: AgentFloatNetwork | undefined,
  fields: Partial<Record<AgentNumberField, string | undefined>>,
): FieldProblem<AgentNumberField>[] {
  if (network === undefined || !networksRequiringAgentNumbers.includes(network)) return [];
  const numberFields: readonly AgentNumberField[] = ['agent_number', 'store_number'];
  return numberFields
    .filter((field) => fields[field] === undefined)
    .map((field) => ({ field, kind: 'required' }));
}

const sendAgentFloatDefinition = defineRequest(
  sendAgentFloatFields,
  (fields, { failed, complete, options }) => {
    const place = resolvePlace(fields, failed);
    const network = resolveNetwork(fields, failed, (detected) => detected.moneyNetwork, agentFloatNetworks);
    const problems = [
      ...place.problems,
      ...network.problems,
      ...agentNumberProblems(network.value, fields),
      ...amountBoundProblems(fields.amount, options),
    ];
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

/** Schema of a `send_agent_float` request body; see `requestSchema` for how to use it. */
export const sendAgentFloatSchema = requestSchema(sendAgentFloatDefinition);

/**
 * A valid `send_agent_float` request: country, currency and network resolved, mobile canonical.
 *
 * @example
 * ```ts
 * import { parseSendAgentFloat, type SendAgentFloatRequest } from '@topup/validation';
 *
 * const result = parseSendAgentFloat({ mobile: '0733000000', amount: '100' });
 * if (result.ok) {
 *   const request: SendAgentFloatRequest = result.value;
 *   request; // { mobile: '254733000000', amount: 100, country: 'KE', currency: 'KES', network: 'MoneyNetB' }
 * }
 * ```
 */
export type SendAgentFloatRequest = z.output<typeof sendAgentFloatSchema>;
/**
 * What a caller may send to `send_agent_float`; integers as numbers or digit strings.
 *
 * @example
 * ```ts
 * import type { SendAgentFloatInput } from '@topup/validation';
 *
 * const body: SendAgentFloatInput = {
 *   mobile: '254712345678',
 *   amount: 500,
 *   agent_number: '123456',
 *   store_number: '654321',
 *   note: 'float for March',
 * };
 * ```
 */
export type SendAgentFloatInput = z.input<typeof sendAgentFloatSchema>;

/**
 * Validates a decoded `send_agent_float` body; failures carry the spec's `3000` strings in field order.
 *
 * @example
 * ```ts
 * import { parseSendAgentFloat } from '@topup/validation';
 *
 * parseSendAgentFloat({
 *   mobile: '0712345678',
 *   amount: '500',
 *   agent_number: '123456',
 *   store_number: '654321',
 * }).ok; // true
 * parseSendAgentFloat({ mobile: '0712345678', amount: '500' }); // { ok: false, errors: ["'agent_number is required.'", "'store_number is required.'"] }
 * parseSendAgentFloat({ mobile: '07123', amount: 'abc' }); // { ok: false, errors: ["'mobile is invalid'", "'amount is invalid'"] }
 * ```
 */
export function parseSendAgentFloat(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<SendAgentFloatRequest> {
  return parseRequest(sendAgentFloatDefinition, input, options);
}
