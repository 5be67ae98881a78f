// Test helper: valid requests as the validation package hands them to the ledger, with overrides, and the
// reference of the transaction one created.

import type { BuyAirtimeRequest, SendAgentFloatRequest } from '@topup/validation';
import type { RequestOutcome } from '../outcomes.js';

/** A valid `send_agent_float` request for 100 KES to a MoneyNetA agent. */
export function floatRequest(overrides: Partial<SendAgentFloatRequest> = {}): SendAgentFloatRequest {
  return {
    country: 'KE',
    network: 'MoneyNetA',
    mobile: '254712345678',
    agent_number: '234567',
    store_number: '765432',
    currency: 'KES',
    amount: 100,
    ...overrides,
  };
}

/** A valid `buy_airtime` request for 50 KES of CarrierB airtime paid from MoneyNetB. */
export function airtimeRequest(overrides: Partial<BuyAirtimeRequest> = {}): BuyAirtimeRequest {
  return {
    country: 'KE',
    network: 'CarrierB',
    mobile: '254733123456',
    currency: 'KES',
    amount: 50,
    payment_network: 'MoneyNetB',
    payment_mobile: '254711222333',
    ...overrides,
  };
}

/** The reference of the transaction a request created; throws naming the outcome otherwise. */
export function referenceOf(outcome: RequestOutcome): string {
  if (outcome.kind !== 'created')
    throw new Error(`Expected a created transaction, received ${outcome.kind}.`);
  return outcome.transaction.reference;
}
