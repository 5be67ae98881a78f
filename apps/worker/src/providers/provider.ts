// The one small interface every money network and airtime carrier sits behind. The server submits a
// transaction within the request; results arrive later and the worker applies them through the ledger. The
// worker asks a provider about a transaction (`query`) before it gives up on one, since only the provider
// knows whether a transaction it was sent has happened.

import type { TransactionRecord } from '@topup/ledger';

/** What a provider said to a submission. */
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

/** A later result of an accepted transaction. */
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
 */
export type ProviderStatus =
  | { readonly kind: 'result'; readonly result: ProviderResult }
  | { readonly kind: 'pending' }
  | { readonly kind: 'not_found' };

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
