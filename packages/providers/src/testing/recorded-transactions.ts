// Test helper: transactions recorded by the real ledger as the server records them, not yet submitted, for
// tests of providers and of the worker that carries them out.

import type { Ledger, TransactionRecord } from '@topup/ledger';
import type { BuyAirtimeRequest, SendAgentFloatRequest, SendAirtimeRequest } from '@topup/validation';

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

/** Recorded airtime of `amount` KES for each of `mobiles`, sent from the caller's Airtime balance. */
export async function sendAirtime(
  ledger: Ledger,
  accountId: string,
  mobiles: readonly string[],
  amount = 50,
): Promise<TransactionRecord[]> {
  const request: SendAirtimeRequest = {
    recipients: mobiles.map((mobile) => ({
      country: 'KE',
      network: 'CarrierB',
      mobile,
      currency: 'KES',
      amount,
    })),
  };
  const outcome = await ledger.sendAirtime({ accountId, request });
  if (outcome.kind !== 'created')
    throw new Error(`Expected the airtime send to be created, received ${outcome.kind}.`);
  return outcome.transactions;
}
