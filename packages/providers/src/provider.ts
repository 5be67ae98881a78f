// The one small interface every money network and airtime carrier sits behind. The server submits a
// transaction within the request; results arrive later and the worker applies them through the ledger. The
// worker asks a provider about a transaction (`query`) before it gives up on one, since only the provider
// knows whether a transaction it was sent has happened.

import type { TransactionRecord } from '@topup/ledger';

/**
 * What a provider said to a submission.
 *
 * @example
 * ```ts
 * import type { SubmitResult } from '@topup/providers';
 *
 * const refused: SubmitResult = { kind: 'refused', reason: 'unknown agent', providerCode: 'MN-404' };
 * ```
 */
export type SubmitResult =
  | { kind: 'accepted' }
  /** Refused at once: the transaction is cancelled and the caller is answered `8000`. */
  | { kind: 'refused'; reason: string; providerCode: string }
  /**
   * Could not be reached or failed: the transaction is cancelled and the caller is answered `9000`.
   * `taken: false` when the provider answered that it did not take the transaction, so nothing can come
   * of it; a silence or an error leaves that unknown.
   */
  | { kind: 'unavailable'; reason: string; taken?: false };

/**
 * A later result of an accepted transaction.
 *
 * @example
 * ```ts
 * import type { ProviderResult } from '@topup/providers';
 *
 * const paid: ProviderResult = {
 *   id: 'evt_1',
 *   reference: 'TXVQYSN6XMFZTY',
 *   outcome: 'completed',
 *   providerCode: 'SIM1A2B3C4D5E',
 *   reason: '',
 * };
 * ```
 */
export interface ProviderResult {
  readonly id: string;
  readonly reference: string;
  readonly outcome: 'completed' | 'declined' | 'failed_after_payment';
  readonly providerCode: string;
  readonly reason: string;
}

/**
 * What a provider knows of one transaction: its final result, that it is still working on it, or that it
 * never took it (so nothing can come of it). A provider that cannot be asked throws.
 *
 * @example
 * ```ts
 * import type { ProviderStatus } from '@topup/providers';
 *
 * function settled(status: ProviderStatus): boolean {
 *   return status.kind !== 'pending';
 * }
 * ```
 */
export type ProviderStatus =
  | { readonly kind: 'result'; readonly result: ProviderResult }
  | { readonly kind: 'pending' }
  | { readonly kind: 'not_found' };

/**
 * A money network or airtime carrier as the server and the worker drive it.
 *
 * @example
 * ```ts
 * import { openStore } from '@topup/ledger';
 * import { createSandboxSimulator, type Provider } from '@topup/providers';
 *
 * const store = await openStore({ dataDir: 'memory://' });
 * const provider: Provider = createSandboxSimulator(store, { delayMs: 0 });
 * for (const result of await provider.readyResults(100)) console.log(result.reference, result.outcome);
 * ```
 */
export interface Provider {
  readonly name: string;
  /** Submits a transaction. Keyed by `reference`: submitting the same reference again never repeats it. */
  submit(transaction: TransactionRecord): Promise<SubmitResult>;
  /** Results that are ready, oldest first. A result stays ready until acknowledged. */
  readyResults(limit: number): Promise<ProviderResult[]>;
  /** Marks results as applied, so they are not handed out again. */
  acknowledge(resultIds: readonly string[]): Promise<void>;
  /** Asks what became of the transaction submitted under `reference`. */
  query(reference: string): Promise<ProviderStatus>;
}
