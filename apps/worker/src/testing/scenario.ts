// Test helper: a caller with funded channels and a callback endpoint, transactions requested and submitted
// the way the server does it, and a wait that explains what it was waiting for.

import { setTimeout as sleep } from 'node:timers/promises';
import type { Account, Ledger, TransactionRecord } from '@topup/ledger';
import type { BuyAirtimeRequest, SendAgentFloatRequest } from '@topup/validation';
import type { Provider } from '../providers/provider.js';

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

/** A recorded float request of `amount` KES to the agent `mobile` (not yet submitted). */
export async function requestFloat(
  ledger: Ledger,
  accountId: string,
  mobile: string,
  amount = 100,
): Promise<TransactionRecord> {
  const request: SendAgentFloatRequest = {
    country: 'KE',
    network: 'MoneyNetA',
    mobile,
    name: 'Agent Baraka',
    agent_number: '234567',
    store_number: '765432',
    currency: 'KES',
    amount,
  };
  const outcome = await ledger.requestAgentFloat({ accountId, request });
  if (outcome.kind !== 'created')
    throw new Error(`Expected the float request to be created, received ${outcome.kind}.`);
  return outcome.transaction;
}

/** A recorded airtime purchase of `amount` KES for `mobile`, paid by `payer` (not yet submitted). */
export async function requestAirtime(
  ledger: Ledger,
  accountId: string,
  mobile: string,
  payer: string,
  amount = 50,
): Promise<TransactionRecord> {
  const request: BuyAirtimeRequest = {
    country: 'KE',
    network: 'CarrierB',
    mobile,
    currency: 'KES',
    amount,
    payment_network: 'MoneyNetB',
    payment_mobile: payer,
  };
  const outcome = await ledger.requestAirtime({ accountId, request });
  if (outcome.kind !== 'created')
    throw new Error(`Expected the airtime request to be created, received ${outcome.kind}.`);
  return outcome.transaction;
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
