// The API functions the client calls, from the operation catalog of @topup/validation: the name on the
// wire and how safe each is to send twice. That safety decides retries once a request may have reached
// the service (see retry-rules.ts).

import { operationCatalog } from '@topup/validation';
import type { ApiFunctionName } from '@topup/validation';

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

type Catalog = typeof operationCatalog;
type MethodName = Catalog[ApiFunctionName]['clientMethod'];

/** The wire name and retry safety of each client method, read from the service's operation catalog. */
export const apiFunctions = Object.fromEntries(
  (Object.keys(operationCatalog) as ApiFunctionName[]).map((wireName) => {
    const { clientMethod, kind } = operationCatalog[wireName];
    return [clientMethod, { wireName, safety: kind === 'money' ? 'keyed' : kind }];
  }),
) as Readonly<Record<MethodName, ApiFunction>>;
