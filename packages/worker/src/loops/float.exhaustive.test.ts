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
import { floatModel } from '../testing/float-model.js';
import { explore } from '../testing/model-exploration.js';
import { openTestStore, testStoreKinds, type TestStore } from '../testing/test-stores.js';

/** Six, as issue 25 asks; EXHAUSTIVE_DEPTH shortens it for a quick look. */
const DEPTH = Number(process.env.EXHAUSTIVE_DEPTH ?? 6);
/** PGlite runs one statement at a time anyway; PostgreSQL works while the runs wait on it. */
const concurrencyOn = { pglite: 1, postgres: 3 } as const;

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

  it(`pays the agent once or not at all and keeps the caller's float exact, in every sequence of up to ${DEPTH} events`, async () => {
    const started = Date.now();
    const concurrency = concurrencyOn[kind];
    const exploration = await explore(floatModel(test.store, concurrency), {
      depth: DEPTH,
      concurrency,
      progress: (line) => {
        console.log(`[${kind}] ${line}`);
      },
    });
    console.log(
      `[${kind}] ${exploration.sequences} sequences of 1 to ${DEPTH} events covered by ${exploration.executed} runs ` +
        `over ${exploration.states} states, in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    expect(exploration.failures.slice(0, 5)).toEqual([]);
    expect((await ledger.verify()).breaches).toEqual([]);
  }, 1_800_000);
});
