// What a successful call returns: the `data` of the success envelope, flat, with the answer's details
// beside it, so `result.transaction.reference` and `result.requestId` read alike. None of the data's
// fields is called `message`, `requestId`, `replayed` or `idempotencyKey`, so nothing is shadowed. The
// data types themselves belong to @topup/envelope, shared with the server that writes them.

/**
 * Details of the answer that every result carries next to its data.
 *
 * @example
 * ```ts
 * import { createClient, type ResponseDetails } from '@topup/client';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * const { message, requestId, replayed }: ResponseDetails = await topup.getBalance();
 * console.log(message, requestId, replayed); // 'Balance found' 'req_…' false
 * ```
 */
export interface ResponseDetails {
  /** `status.message`, e.g. `Airtime purchase requested`. */
  readonly message: string;
  /** `X-Request-Id` of the answer; quote it when asking about a call. */
  readonly requestId: string | undefined;
  /** True when the service replayed its first answer to this `Idempotency-Key`. */
  readonly replayed: boolean;
}

/**
 * A successful call: the success `data` without its (empty) `errors`, plus the answer's details.
 *
 * @example
 * ```ts
 * import { createClient, type TopupResult } from '@topup/client';
 * import type { BalanceData } from '@topup/envelope';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * const balance: TopupResult<BalanceData> = await topup.getBalance();
 * for (const channel of balance.channels) console.log(channel.type, channel.balance);
 * ```
 */
export type TopupResult<D> = D & ResponseDetails;

/**
 * A successful operation (`sendAgentFloat`, `buyAirtime` or `sendAirtime`), with the `Idempotency-Key`
 * it was sent with.
 *
 * @example
 * ```ts
 * import { createClient, type OperationResult } from '@topup/client';
 * import type { AgentFloatData, SendAirtimeData } from '@topup/envelope';
 *
 * const topup = createClient({ baseUrl: 'https://topup.example.com', token: process.env.TOPUP_TOKEN! });
 *
 * const float: OperationResult<AgentFloatData> = await topup.sendAgentFloat({
 *   mobile: '254712345678',
 *   amount: 1500,
 *   agent_number: '123456',
 *   store_number: '654321',
 * });
 * console.log(float.transaction.reference, float.channel.balance, float.idempotencyKey);
 *
 * const sent: OperationResult<SendAirtimeData> = await topup.sendAirtime({
 *   recipients: [{ mobile: '254712345678', amount: 50 }, { mobile: '254733123456', amount: 20 }],
 * });
 * for (const entry of sent.transactions) console.log(entry.reference, entry.status);
 * ```
 */
export type OperationResult<D> = TopupResult<D> & { readonly idempotencyKey: string };
