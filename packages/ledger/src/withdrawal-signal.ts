// What the ledger needs of a caller's "I have given up" signal: whether it has fired, why, and a way to
// hear it once. An AbortSignal is one; a server can pass a lighter object of its own that answers the same
// (an AbortController and its EventTarget per request cost a server measurable CPU at thousands a second).

/**
 * A caller's give-up signal, as much of an `AbortSignal` as the ledger reads.
 *
 * @example
 * ```ts
 * import type { WithdrawalSignal } from '@topup/ledger';
 *
 * const signal: WithdrawalSignal = AbortSignal.timeout(5_000);
 * signal.aborted; // false for the next five seconds
 * ```
 */
export interface WithdrawalSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}
