// The sandbox's outcome table as docs/decisions.md and the README state it, on transactions recorded by
// the real ledger: the payer decides a purchase's payment leg, the recipient the rest, the agent a float.

import { createLedger, openStore } from '@topup/ledger';
import type { Ledger, Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestAirtime, requestFloat, sendAirtime } from './testing/recorded-transactions.js';
import { sandboxOutcome } from './sandbox-outcomes.js';

describe('sandboxOutcome', () => {
  let store: Store;
  let ledger: Ledger;
  let accountId: string;

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://' });
    ledger = createLedger(store);
    accountId = (await ledger.createAccount({ name: 'Duka Ltd' })).id;
    await ledger.fund(accountId, 'float', 1_000_000n);
    await ledger.fund(accountId, 'airtime', 1_000_000n);
  });

  afterAll(async () => {
    await ledger.close();
    await store.close();
  });

  it.each([
    ['254711000001', '254733000123', 'declined'],
    ['254711000002', '254733000123', 'never_answers'],
    ['254711000003', '254733000123', 'refused_at_once'],
    ['254711000004', '254733000123', 'unavailable'],
    ['254711000005', '254733000123', 'completes'],
    ['254711222333', '254733000001', 'declined'],
    ['254711222333', '254733000002', 'never_answers'],
    ['254711222333', '254733000003', 'refused_at_once'],
    ['254711222333', '254733000004', 'unavailable'],
    ['254711222333', '254733000005', 'fails_after_payment'],
    ['254711000005', '254733000001', 'declined'],
    ['254711000003', '254733000005', 'refused_at_once'],
    ['254711222333', '254733123456', 'completes'],
  ])('gives airtime paid by %s for %s the outcome %s', async (payer, recipient, outcome) => {
    const transaction = await requestAirtime(ledger, accountId, recipient, payer);
    expect(sandboxOutcome(transaction)).toBe(outcome);
  });

  it.each([
    ['254712340001', 'declined'],
    ['254712340002', 'never_answers'],
    ['254712340003', 'refused_at_once'],
    ['254712340004', 'unavailable'],
    ['254712340005', 'declined'],
    ['254712345678', 'completes'],
  ])('gives a float to agent %s the outcome %s', async (agent, outcome) => {
    const transaction = await requestFloat(ledger, accountId, agent);
    expect(sandboxOutcome(transaction)).toBe(outcome);
  });

  it.each([
    ['254733000001', 'declined'],
    ['254733000002', 'never_answers'],
    ['254733000003', 'refused_at_once'],
    ['254733000004', 'unavailable'],
    ['254733000005', 'declined'],
    ['254733123456', 'completes'],
  ])('gives airtime sent from the balance to %s the outcome %s', async (recipient, outcome) => {
    const [transaction] = await sendAirtime(ledger, accountId, [recipient]);
    expect(transaction === undefined ? undefined : sandboxOutcome(transaction)).toBe(outcome);
  });
});
