// The error for a call that got no envelope back: the network failed, the answer did not come in time,
// or what came back was not an envelope. What matters to a caller is whether the service may have
// acted on the request, so that is the one thing this error always says.

/**
 * What a `TopupTransportError` knows: above all whether the service may have acted on the request.
 *
 * @example
 * ```ts
 * import { createClient, TopupTransportError, type TransportErrorDetails } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * try {
 *   await topup.getBalance();
 * } catch (error) {
 *   if (!(error instanceof TopupTransportError)) throw error;
 *   const details: Pick<TransportErrorDetails, 'mayHaveReachedServer'> = error;
 *   console.error(
 *     details.mayHaveReachedServer ? 'outcome unknown' : 'the service never saw it',
 *     error.cause,
 *   );
 * }
 * ```
 */
export interface TransportErrorDetails {
  /**
   * False only when the connection was never made (refused, unknown host), so the service cannot have
   * seen the request. True means it may have acted: check with `getTransaction`, or repeat an
   * operation with the same `idempotencyKey`.
   */
  readonly mayHaveReachedServer: boolean;
  readonly cause: unknown;
  /** The HTTP status, when an answer arrived but was not an envelope. */
  readonly httpStatus?: number;
  /** The key the call was sent with (operations only). */
  readonly idempotencyKey?: string;
}

/**
 * No envelope came back from the service; `cause` holds the underlying failure.
 *
 * @example
 * ```ts
 * import { createClient, TopupTransportError } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * const order = {
 *   mobile: '254712345678',
 *   amount: 100,
 *   payment_network: 'MoneyNetA',
 *   payment_mobile: '254722000111',
 * } as const;
 * try {
 *   await topup.buyAirtime(order, { idempotencyKey: 'order-1042' });
 * } catch (error) {
 *   if (!(error instanceof TopupTransportError) || !error.mayHaveReachedServer) throw error;
 *   // Same key, same request: the service answers with the first outcome instead of buying twice.
 *   await topup.buyAirtime(order, { idempotencyKey: 'order-1042' });
 * }
 * ```
 */
export class TopupTransportError extends Error {
  override readonly name = 'TopupTransportError';
  readonly mayHaveReachedServer: boolean;
  readonly httpStatus: number | undefined;
  readonly idempotencyKey: string | undefined;

  constructor(message: string, details: TransportErrorDetails) {
    super(message, { cause: details.cause });
    this.mayHaveReachedServer = details.mayHaveReachedServer;
    this.httpStatus = details.httpStatus;
    this.idempotencyKey = details.idempotencyKey;
  }
}
