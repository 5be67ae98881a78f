// The ten API functions the client calls: the name on the wire and how safe each is to send twice.
// That safety decides retries once a request may have reached the service (see retry-rules.ts).

/**
 * - `keyed`: an operation sent with an `Idempotency-Key`; the service answers a repeat from the first
 *   answer, so it never happens twice.
 * - `read`: changes nothing, so repeating it is harmless.
 * - `change`: changes state without a key (a second `rotate_callback_secret` would replace the secret
 *   the first one returned), so it is never repeated once it may have arrived.
 */
export type RetrySafety = 'keyed' | 'read' | 'change';

export interface ApiFunction {
  readonly wireName: string;
  readonly safety: RetrySafety;
}

export const apiFunctions = {
  sendAgentFloat: { wireName: 'send_agent_float', safety: 'keyed' },
  buyAirtime: { wireName: 'buy_airtime', safety: 'keyed' },
  getBalance: { wireName: 'get_balance', safety: 'read' },
  getTransaction: { wireName: 'get_transaction', safety: 'read' },
  addCallbackEndpoint: { wireName: 'add_callback_endpoint', safety: 'change' },
  listCallbackEndpoints: { wireName: 'list_callback_endpoints', safety: 'read' },
  removeCallbackEndpoint: { wireName: 'remove_callback_endpoint', safety: 'change' },
  rotateCallbackSecret: { wireName: 'rotate_callback_secret', safety: 'change' },
  resendCallback: { wireName: 'resend_callback', safety: 'change' },
  listCallbackDeliveries: { wireName: 'list_callback_deliveries', safety: 'read' },
} as const satisfies Record<string, ApiFunction>;
