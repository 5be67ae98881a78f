// The two error strings of the contract's `3000` rules. The single quotes are part of the string.

/**
 * `'<field> is required.'`: the field is missing (with the period, as the spec writes it).
 *
 * @example
 * ```ts
 * import { required } from '@topup/validation';
 *
 * required('mobile'); // "'mobile is required.'"
 * ```
 */
export function required(field: string): string {
  return `'${field} is required.'`;
}

/**
 * `'<field> is invalid'`: the field is present but wrong (no period, as the spec writes it).
 *
 * @example
 * ```ts
 * import { invalid } from '@topup/validation';
 *
 * invalid('amount'); // "'amount is invalid'"
 * ```
 */
export function invalid(field: string): string {
  return `'${field} is invalid'`;
}
