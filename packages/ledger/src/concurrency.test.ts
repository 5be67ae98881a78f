// Concurrency on real PostgreSQL: a thousand float requests race for an account that can pay for half
// of them, through one ledger and through two ledgers on separate pools (two processes' worth).

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLedger, type Ledger } from './ledger.js';
import type { RequestOutcome } from './outcomes.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';
import { floatRequest } from './testing/requests.js';

const requestCount = 1_000;
const requestShillings = 100;
const fundingMinor = 5_000_000n; // KES 50,000.00: exactly 500 requests of KES 100

/** Fires the requests round-robin across the ledgers, sampling the balance until all are answered. */
async function raceFor(ledgers: readonly Ledger[], accountId: string) {
  const samples: bigint[] = [];
  const done = { value: false };
  const sampler = (async () => {
    while (!done.value) {
      samples.push((await (ledgers[0] as Ledger).balance(accountId, 'float')).availableMinor);
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })();
  const outcomes = await Promise.all(
    Array.from({ length: requestCount }, (_, index) =>
      (ledgers[index % ledgers.length] as Ledger).requestAgentFloat({
        accountId,
        request: floatRequest({ amount: requestShillings }),
      }),
    ),
  );
  done.value = true;
  await sampler;
  return { outcomes, samples };
}

function count(outcomes: readonly RequestOutcome[], kind: RequestOutcome['kind']): number {
  return outcomes.filter((outcome) => outcome.kind === kind).length;
}

describe.each(testStoreKinds())('concurrent float requests through one ledger on %s', (kind) => {
  let test: TestStore;

  beforeAll(async () => {
    test = await openTestStore(kind);
  });
  afterAll(async () => {
    await test.dispose();
  });

  it('gives exactly 500 created and 500 insufficient balance, never going below zero', async () => {
    const ledger = createLedger(test.store);
    const account = await ledger.createAccount({ name: 'Hot Account Ltd' });
    await ledger.fund(account.id, 'float', fundingMinor);

    const { outcomes, samples } = await raceFor([ledger], account.id);

    expect(count(outcomes, 'created')).toBe(500);
    expect(count(outcomes, 'insufficient_balance')).toBe(500);
    expect((await ledger.balance(account.id, 'float')).availableMinor).toBe(0n);
    expect(samples.length).toBeGreaterThan(0);
    expect(samples.filter((sample) => sample < 0n)).toEqual([]);
    expect((await ledger.verify()).breaches).toEqual([]);
    await ledger.close();
  });
});

describe.skipIf(!testStoreKinds().includes('postgres'))(
  'concurrent float requests across two pools on PostgreSQL',
  () => {
    let test: TestStore;

    beforeAll(async () => {
      test = await openTestStore('postgres');
    });
    afterAll(async () => {
      await test.dispose();
    });

    it('gives the same across two ledgers on two separate pools', async () => {
      const first = createLedger(test.store);
      const second = createLedger(await test.openSecondStore());
      const account = await first.createAccount({ name: 'Two Process Traders' });
      await first.fund(account.id, 'float', fundingMinor);

      const { outcomes, samples } = await raceFor([first, second], account.id);

      expect(count(outcomes, 'created')).toBe(500);
      expect(count(outcomes, 'insufficient_balance')).toBe(500);
      expect((await second.balance(account.id, 'float')).availableMinor).toBe(0n);
      expect(samples.filter((sample) => sample < 0n)).toEqual([]);
      expect((await first.verify()).breaches).toEqual([]);
      await Promise.all([first.close(), second.close()]);
    });
  },
);
