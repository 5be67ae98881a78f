// Test helper: a caller with funded channels and a callback endpoint, transactions requested and submitted
// the way the server does it, and a wait that explains what it was waiting for.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Account, Ledger, TransactionRecord } from '@topup/ledger';
import type { Provider } from '@topup/providers';

export { requestAirtime, requestFloat } from '@topup/providers/testing';

export interface Caller {
  readonly account: Account;
  readonly endpointId: string;
  readonly secret: string;
}

/** An account with 10,000 KES of float and an endpoint at `url`. */
export async function callerWithEndpoint(
  ledger: Ledger,
  url: string,
  format: 'json' | 'xml' = 'json',
): Promise<Caller> {
  const account = await ledger.createAccount({
    name: 'Duka Ltd',
    mobile: '254700000001',
    email: 'ops@duka.example',
  });
  await ledger.fund(account.id, 'float', 1_000_000n);
  const { endpoint, secret } = await ledger.addCallbackEndpoint(account.id, {
    url,
    format,
    description: 'test receiver',
  });
  return { account, endpointId: endpoint.id, secret };
}

/** Submits as the server does within a request: accepted → submitted, refused or unavailable → cancelled. */
export async function submitLikeTheServer(
  ledger: Ledger,
  provider: Provider,
  transaction: TransactionRecord,
): Promise<void> {
  const answer = await provider.submit(transaction);
  if (answer.kind === 'accepted') await ledger.markSubmitted(transaction.reference);
  else if (answer.kind === 'refused') {
    await ledger.cancel(transaction.reference, { reason: answer.reason, providerCode: answer.providerCode });
  } else await ledger.cancel(transaction.reference, { reason: answer.reason });
}

/** Polls `probe` until it returns a value other than undefined; throws naming `what` on timeout. */
export async function eventually<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > until) throw new Error(`Expected ${what} within ${timeoutMs} ms; it did not happen.`);
    await sleep(20);
  }
}
