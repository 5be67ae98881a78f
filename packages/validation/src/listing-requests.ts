// Requests of the listing functions: `list_transactions` (the caller's transactions, newest first, by
// filters) and `list_statement` (the postings of one channel with the balance around each). Both page by
// an opaque `cursor` from the previous page's `next_cursor`.

import { z } from 'zod';
import {
  dateBoundText,
  idempotencyKeyText,
  mobileNumber,
  pageLimit,
  serviceIdentifier,
} from './field-schemas.js';
import { decodeStatementCursor, decodeTransactionCursor, maxCursorLength } from './listing-cursors.js';
import {
  defineRequest,
  fieldsAsRequest,
  parseRequest,
  requestSchema,
  type ParseOptions,
  type ValidationResult,
} from './request-parser.js';

/** The kinds of transaction, as `transaction.type` shows them. */
export const transactionTypes = ['Agent Float', 'Airtime'] as const;
/** The states of a transaction, as `transaction.state` shows them. */
export const transactionStates = ['requested', 'completed', 'cancelled'] as const;
/** The channels of an account, as `get_balance` names them. */
export const channelTypes = ['Agent Float', 'Airtime'] as const;

const from = dateBoundText
  .optional()
  .meta({ description: 'Only what was created at or after this ISO 8601 date or date-time' });
const to = dateBoundText
  .optional()
  .meta({ description: 'Only what was created before this ISO 8601 date or date-time' });
const limit = pageLimit.meta({ description: 'Most entries in the page, 1 to 100 (default 50)' });

function cursorOf(decodes: (text: string) => unknown) {
  return z
    .string()
    .trim()
    .max(maxCursorLength)
    .refine((text) => decodes(text) !== undefined)
    .optional()
    .meta({ description: "The previous page's next_cursor, to read the page after it" });
}

const listTransactionsDefinition = defineRequest(
  z.object({
    type: z.enum(transactionTypes).optional().meta({ description: 'Only transactions of this type' }),
    state: z.enum(transactionStates).optional().meta({ description: 'Only transactions in this state' }),
    from,
    to,
    reference: serviceIdentifier.optional().meta({ description: 'Only the transaction with this reference' }),
    idempotency_key: idempotencyKeyText.optional().meta({
      description: 'Only what the request sent with this Idempotency-Key made (keys are kept for 24 hours)',
    }),
    mobile: mobileNumber.optional().meta({ description: 'Only transactions to or paid from this mobile' }),
    limit,
    cursor: cursorOf(decodeTransactionCursor),
  }),
  fieldsAsRequest,
);

const listStatementDefinition = defineRequest(
  z.object({
    channel: z.enum(channelTypes).meta({ description: 'The channel whose postings to list' }),
    from,
    to,
    limit,
    cursor: cursorOf(decodeStatementCursor),
  }),
  fieldsAsRequest,
);

/** Schema of a `list_transactions` request body. */
export const listTransactionsSchema = requestSchema(listTransactionsDefinition);
/** Schema of a `list_statement` request body. */
export const listStatementSchema = requestSchema(listStatementDefinition);

/**
 * A valid `list_transactions` request: its filters, `mobile` normalised, and `limit` always set (50 by
 * default).
 *
 * @example
 * ```ts
 * import { parseListTransactions, type ListTransactionsRequest } from '@topup/validation';
 *
 * const result = parseListTransactions({ type: 'Airtime', mobile: '0712345678' });
 * const request: ListTransactionsRequest | undefined = result.ok ? result.value : undefined;
 * request; // { type: 'Airtime', mobile: '254712345678', limit: 50 }
 * ```
 */
export type ListTransactionsRequest = z.output<typeof listTransactionsSchema>;
/**
 * What a caller may send to `list_transactions`: every field is optional.
 *
 * @example
 * ```ts
 * import type { ListTransactionsInput } from '@topup/validation';
 *
 * const body: ListTransactionsInput = { state: 'cancelled', from: '2025-11-01', to: '2025-12-01', limit: 100 };
 * ```
 */
export type ListTransactionsInput = z.input<typeof listTransactionsSchema>;
/**
 * A valid `list_statement` request: the channel, its date bounds, and `limit` always set (50 by default).
 *
 * @example
 * ```ts
 * import { parseListStatement, type ListStatementRequest } from '@topup/validation';
 *
 * const result = parseListStatement({ channel: 'Agent Float', limit: '20' });
 * const request: ListStatementRequest | undefined = result.ok ? result.value : undefined;
 * request; // { channel: 'Agent Float', limit: 20 }
 * ```
 */
export type ListStatementRequest = z.output<typeof listStatementSchema>;
/**
 * What a caller may send to `list_statement`.
 *
 * @example
 * ```ts
 * import type { ListStatementInput } from '@topup/validation';
 *
 * const body: ListStatementInput = { channel: 'Airtime', from: '2025-11-21T00:00:00+03:00' };
 * ```
 */
export type ListStatementInput = z.input<typeof listStatementSchema>;

/**
 * Validates a decoded `list_transactions` body: every filter is optional, each bad one is `invalid`.
 *
 * @example
 * ```ts
 * import { parseListTransactions } from '@topup/validation';
 *
 * parseListTransactions({ state: 'completed' }); // { ok: true, value: { state: 'completed', limit: 50 } }
 * parseListTransactions({ from: 'yesterday', limit: 500 }); // { ok: false, errors: ["'from is invalid'", "'limit is invalid'"] }
 * ```
 */
export function parseListTransactions(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<ListTransactionsRequest> {
  return parseRequest(listTransactionsDefinition, input, options);
}

/**
 * Validates a decoded `list_statement` body (`channel` required, by its name in `get_balance`).
 *
 * @example
 * ```ts
 * import { parseListStatement } from '@topup/validation';
 *
 * parseListStatement({ channel: 'Airtime' }); // { ok: true, value: { channel: 'Airtime', limit: 50 } }
 * parseListStatement({ channel: 'float', cursor: 'x' }); // { ok: false, errors: ["'channel is invalid'", "'cursor is invalid'"] }
 * parseListStatement({}); // { ok: false, errors: ["'channel is required.'"] }
 * ```
 */
export function parseListStatement(
  input: unknown,
  options?: ParseOptions,
): ValidationResult<ListStatementRequest> {
  return parseRequest(listStatementDefinition, input, options);
}
