// Requests of the account functions that read state: `get_balance` and `get_transaction`.

import { z } from 'zod';
import { serviceIdentifier } from './field-schemas.js';
import {
  defineRequest,
  fieldsAsRequest,
  parseRequest,
  requestSchema,
  type ParseOptions,
  type ValidationResult,
} from './request-parser.js';

const getBalanceDefinition = defineRequest(z.object({}), fieldsAsRequest);

const getTransactionDefinition = defineRequest(
  z.object({
    reference: serviceIdentifier.meta({
      description: 'Reference returned when the transaction was requested',
    }),
  }),
  fieldsAsRequest,
);

/** Schema of a `get_balance` request body (no fields). */
export const getBalanceSchema = requestSchema(getBalanceDefinition);
/** Schema of a `get_transaction` request body. */
export const getTransactionSchema = requestSchema(getTransactionDefinition);

/**
 * A valid `get_balance` request: it has no fields.
 *
 * @example
 * ```ts
 * import { parseGetBalance, type GetBalanceRequest } from '@topup/validation';
 *
 * const result = parseGetBalance({});
 * const request: GetBalanceRequest | undefined = result.ok ? result.value : undefined;
 * request; // {}
 * ```
 */
export type GetBalanceRequest = z.output<typeof getBalanceSchema>;
/**
 * What a caller may send to `get_balance`: no fields.
 *
 * @example
 * ```ts
 * import type { GetBalanceInput } from '@topup/validation';
 *
 * const body: GetBalanceInput = {};
 * ```
 */
export type GetBalanceInput = z.input<typeof getBalanceSchema>;
/**
 * A valid `get_transaction` request: the `reference` of the transaction, trimmed.
 *
 * @example
 * ```ts
 * import { parseGetTransaction, type GetTransactionRequest } from '@topup/validation';
 *
 * const result = parseGetTransaction({ reference: 'TX7Q2M9K4D' });
 * const request: GetTransactionRequest | undefined = result.ok ? result.value : undefined;
 * request; // { reference: 'TX7Q2M9K4D' }
 * ```
 */
export type GetTransactionRequest = z.output<typeof getTransactionSchema>;
/**
 * What a caller may send to `get_transaction`.
 *
 * @example
 * ```ts
 * import type { GetTransactionInput } from '@topup/validation';
 *
 * const body: GetTransactionInput = { reference: 'TX7Q2M9K4D' };
 * ```
 */
export type GetTransactionInput = z.input<typeof getTransactionSchema>;

/**
 * Validates a decoded `get_balance` body: it has no fields, so any body is accepted.
 *
 * @example
 * ```ts
 * import { parseGetBalance } from '@topup/validation';
 *
 * parseGetBalance({}); // { ok: true, value: {} }
 * ```
 */
export function parseGetBalance(input: unknown, options?: ParseOptions): ValidationResult<GetBalanceRequest> {
  return parseRequest(getBalanceDefinition, input, options);
}

/**
 * Validates a decoded `get_transaction` body (`reference` required).
 *
 * @example
 * ```ts
 * import { parseGetTransaction } from '@topup/validation';
 *
 * parseGetTransaction({ reference: 'TX7Q2M9K4D' }); // { ok: true, value: { reference: 'TX7Q2M9K4D' } }
 * parseGetTransaction({}); // { ok: false, errors: ["'reference is required.'"] }
 * ```
 */
export function parseGetTransaction(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<GetTransactionRequest> {
  return parseRequest(getTransactionDefinition, input, options);
}
