// Mutations check the exhaustive explorations: with one row of the ledger's transition table changed, the
// same exploration (purchase-chains.exhaustive.test.ts, float.exhaustive.test.ts) must find a sequence that
// breaks the money rules. The row is replaced in the live table, which the ledger reads at every event, and
// put back afterwards; each exploration starts from the first root only and stops at its first violation.

import { createLedger, legRules, type Ledger, type LegRule } from '@topup/ledger';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { floatModel } from '../testing/float-model.js';
import { explore, type ExplorationModel } from '../testing/model-exploration.js';
import { purchaseModel } from '../testing/purchase-model.js';
import { openTestStore, type TestStore } from '../testing/test-stores.js';

const table = legRules as LegRule[];
let restore: (() => void) | undefined;

/** Replaces the one row `matches` picks with what `mutate` makes of it, until the test ends. */
function mutateRow(matches: (rule: LegRule) => boolean, mutate: (rule: LegRule) => LegRule): void {
  const index = table.findIndex(matches);
  const original = table[index];
  if (original === undefined || table.findIndex((rule, at) => at > index && matches(rule)) >= 0) {
    throw new Error('Expected exactly one row of the transition table to mutate.');
  }
  table[index] = mutate(original);
  restore = () => {
    table[index] = original;
  };
}

describe('the exhaustive explorations under a mutated transition table', () => {
  let test: TestStore;
  let ledger: Ledger;

  beforeAll(async () => {
    test = await openTestStore('pglite');
    ledger = createLedger(test.store);
  });
  afterEach(() => {
    restore?.();
    restore = undefined;
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });

  async function firstViolation<Run, State>(model: ExplorationModel<Run, State>) {
    const exploration = await explore(
      { ...model, roots: model.roots.slice(0, 1) },
      { depth: 6, concurrency: 1, stopAtFirstViolation: true },
    );
    const [failure] = exploration.failures;
    console.log(`first violation after ${exploration.executed} runs:`, failure);
    return failure;
  }

  it('finds a second reversal when a refund is claimed without looking for one claimed already', async () => {
    mutateRow(
      (rule) =>
        rule.leg === 'refund' && rule.event === 'call' && rule.when.startsWith('no refund, delivery failed'),
      (rule) => ({
        ...rule,
        holds: (s) => s.legs.delivery === 'failed' && s.transaction === 'requested' && !s.review,
      }),
    );
    const failure = await firstViolation(purchaseModel(test.store, 1));
    expect(failure?.violations).toContain('a second reversal was sent');
  });

  it('finds a delivery success after a failure left out of review when the contradiction rule completes it', async () => {
    mutateRow(
      (rule) =>
        rule.shape === 'chain' &&
        rule.leg === 'delivery' &&
        rule.event === 'succeeded' &&
        rule.when === 'otherwise',
      (rule) => ({ ...rule, then: 'complete' }),
    );
    const failure = await firstViolation(purchaseModel(test.store, 1));
    expect(failure?.violations).toContain(
      'a result contradicted the delivery, yet it does not wait for an operator',
    );
  });

  it('finds a float paid out after its cancellation left out of review when a late success is ignored', async () => {
    mutateRow(
      (rule) => rule.shape === 'whole' && rule.event === 'succeeded' && rule.when === 'cancelled',
      (rule) => ({ ...rule, then: 'ignore' }),
    );
    const failure = await firstViolation(floatModel(test.store, 1));
    expect(failure?.violations).toContain(
      'a Result contradicted the disbursement, yet it does not wait for an operator',
    );
  });
});
