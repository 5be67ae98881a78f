// The network vocabularies of the contract: money networks and airtime carriers as runtime lists.
// The same literal unions are declared in @topup/envelope (data.ts); they are repeated here because
// this package does not depend on the envelope and the validators need the values at run time.

/** Money networks in the spec's order: `MoneyNetA` is the first option, `MoneyNetD` the fourth. */
export const moneyNetworks = ['MoneyNetA', 'MoneyNetB', 'MoneyNetC', 'MoneyNetD'] as const;

/** Airtime carriers in the spec's order. */
export const carriers = ['CarrierA', 'CarrierB', 'CarrierC'] as const;

/** Money networks that `send_agent_float` accepts: the spec lists A to C only. */
export const agentFloatNetworks = ['MoneyNetA', 'MoneyNetB', 'MoneyNetC'] as const;

/**
 * A money network, in the contract's names.
 *
 * @example
 * ```ts
 * import { moneyNetworks, type MoneyNetwork } from '@topup/validation';
 *
 * const network: MoneyNetwork = 'MoneyNetD';
 * moneyNetworks.indexOf(network); // 3
 * ```
 */
export type MoneyNetwork = (typeof moneyNetworks)[number];
/**
 * An airtime carrier, in the contract's names.
 *
 * @example
 * ```ts
 * import { carriers, type Carrier } from '@topup/validation';
 *
 * const carrier: Carrier = 'CarrierB';
 * carriers.includes(carrier); // true
 * ```
 */
export type Carrier = (typeof carriers)[number];
/**
 * A money network `send_agent_float` accepts.
 *
 * @example
 * ```ts
 * import { agentFloatNetworks, type AgentFloatNetwork } from '@topup/validation';
 *
 * const network: AgentFloatNetwork = 'MoneyNetC';
 * agentFloatNetworks.includes(network); // true
 * ```
 */
export type AgentFloatNetwork = (typeof agentFloatNetworks)[number];
