// Proof by exhaustive exploration (issue 25): every sequence of up to six events about one airtime purchase
// carried by two providers, run through the real ledger and the real worker loops (purchase chains,
// timeouts, interrupted submissions, result application) with M-Pesa and the carrier scripted
// (testing/purchase-model.ts: the roots, the events, what the providers may say). Each sequence runs on a
// new purchase in one store shared by the file, replaying its prefix, and the loops see only that purchase.
//
// Checked after every sequence: the payer is prompted at most once; no reversal is sent twice, nor for a
// purchase recorded delivered, and airtime is sent again only after the carrier said it never had it; every
// contradicting or mismatched result leaves its leg waiting for an operator until one settles that leg; no
// purpose is posted twice, and the caller's airtime channel holds the commission of a completed purchase
// and nothing else. Then honest providers answer the truth of whatever is in flight, time runs past the
// reconciliation window, and the loops run until nothing changes: a payer who paid ends delivered once or
// refunded once, a payer who did not ends cancelled with nothing moved, never delivered and refunded both,
// or a leg waits for an operator. The store's verify() is clean at the end.
//
// Pruning (testing/model-exploration.ts): breadth first, a sequence whose abstract state was reached
// before, at the same depth or a smaller one, stops there, since everything after it is explored from that
// state, settling included. That is sound because the abstract state decides what follows: the purchase
// model lists what it holds and why nothing else matters; time enters only through phases
// (testing/model-runs.ts); two workers at once take turns call by call (testing/lockstep.ts), so their race
// replays exactly; and the first expansion of every state replays its path and must reach the same state.
// Events that cannot happen in a state, or cannot differ there from nothing happening, are left out of it.
// The number of sequences covered is counted on the state graph and printed with the runs executed.

import { createLedger, type Ledger } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPLORATION_DEPTH, exploreAndReport } from '../testing/model-exploration.js';
import { runsAtOnce } from '../testing/model-runs.js';
import { purchaseModel } from '../testing/purchase-model.js';
import { openTestStore, testStoreKinds, type TestStore } from '../testing/test-stores.js';

describe.each(testStoreKinds())(
  'a purchase carried by two providers, explored exhaustively on %s',
  (kind) => {
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

    it(`never charges twice, and ends every purchase delivered or refunded once or waiting for an operator, in every sequence of up to ${EXPLORATION_DEPTH} events`, async () => {
      const concurrency = runsAtOnce[kind];
      const exploration = await exploreAndReport(kind, purchaseModel(test.store, concurrency), concurrency);
      expect(exploration.failures.slice(0, 5)).toEqual([]);
      expect((await ledger.verify()).breaches).toEqual([]);
    }, 1_800_000);
  },
);
