// Proof by exhaustive exploration (issue 25): every sequence of up to six events about one agent float,
// run through the real ledger and the real worker loops (timeouts, interrupted submissions, result
// application) with M-Pesa scripted (testing/float-model.ts: the roots, the events, what M-Pesa may say).
// Each sequence runs on a new float in one store shared by the file, replaying its prefix, and the loops
// see only that float.
//
// Checked after every sequence: no B2B is sent twice; every contradicting or mismatched Result leaves the
// disbursement waiting for an operator until one settles it; the reservation is made once and posted or
// voided at most once, and the caller's Float channel holds exactly its funding less what completed, with
// what is still requested reserved. Then an honest M-Pesa answers the truth of whatever is in flight,
// time runs past the reconciliation window, and the loops run until nothing changes: a float M-Pesa paid
// out ends completed, one it did not ends cancelled, or it waits for an operator. The store's verify() is
// clean at the end.
//
// Pruning is as purchase-chains.exhaustive.test.ts explains (testing/model-exploration.ts): a sequence
// whose abstract state was reached before at the same depth or a smaller one stops there, sound because
// the abstract state decides what follows (testing/float-model.ts lists it). The number of sequences
// covered is counted on the state graph and printed with the runs executed.

import { createLedger, type Ledger } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPLORATION_DEPTH, exploreAndReport } from '../testing/model-exploration.js';
import { runsAtOnce } from '../testing/model-runs.js';
import { floatModel } from '../testing/float-model.js';
import { openTestStore, testStoreKinds, type TestStore } from '../testing/test-stores.js';

describe.each(testStoreKinds())('an agent float, explored exhaustively on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;

  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store);
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });

  it(`pays the agent once or not at all and keeps the caller's float exact, in every sequence of up to ${EXPLORATION_DEPTH} events`, async () => {
    const concurrency = runsAtOnce[kind];
    const exploration = await exploreAndReport(kind, floatModel(test.store, concurrency), concurrency);
    expect(exploration.failures.slice(0, 5)).toEqual([]);
    expect((await ledger.verify()).breaches).toEqual([]);
  }, 1_800_000);
});
