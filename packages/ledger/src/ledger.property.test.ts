// Model-based property: random sequences of funding, requests (floats, purchases and airtime sends of
// several recipients from the balance; with and without idempotency keys, alone and concurrent),
// completions, cancellations and their duplicates and races keep every ledger invariant, every balance
// equals that of a plain in-memory model, no channel goes below zero, and each send is all or nothing.

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Carrier } from '@topup/envelope';
import { createLedger, type Ledger } from './ledger.js';
import type { RequestOutcome, ResolveOutcome, SendAirtimeOutcome, StoredResponse } from './outcomes.js';
import { airtimeRequest, floatRequest } from './testing/requests.js';
import { sendRequest } from './testing/sends.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

const commissionBasisPoints = { CarrierC: 250 } as const;
const keys = ['k0', 'k1', 'k2'] as const;

type RequestOp =
  | { kind: 'float'; account: number; shillings: number; key: string | undefined }
  | { kind: 'airtime'; account: number; shillings: number; carrier: Carrier; key: string | undefined }
  | { kind: 'send'; account: number; amounts: number[]; carrier: Carrier; key: string | undefined };
/** What the ledger answers a request of any kind. */
type AnyOutcome = RequestOutcome | SendAirtimeOutcome;
type ResolveOp =
  { kind: 'complete'; pick: number } | { kind: 'cancel'; pick: number; paymentCollected: boolean };
type Op =
  | { kind: 'fund'; account: number; channel: 'float' | 'airtime'; minor: number }
  | { kind: 'save'; account: number; key: string }
  | RequestOp
  | ResolveOp
  | { kind: 'concurrentRequests'; requests: RequestOp[] }
  | { kind: 'concurrentResolutions'; resolutions: ResolveOp[] };

const account = fc.integer({ min: 0, max: 1 });
const key = fc.option(fc.constantFrom(...keys), { nil: undefined });
const requestOp: fc.Arbitrary<RequestOp> = fc.oneof(
  fc.record({
    kind: fc.constant('float' as const),
    account,
    shillings: fc.integer({ min: 1, max: 300 }),
    key,
  }),
  fc.record({
    kind: fc.constant('airtime' as const),
    account,
    shillings: fc.integer({ min: 1, max: 300 }),
    carrier: fc.constantFrom<Carrier>('CarrierA', 'CarrierC'),
    key,
  }),
  fc.record({
    kind: fc.constant('send' as const),
    account,
    amounts: fc.array(fc.integer({ min: 1, max: 300 }), { minLength: 1, maxLength: 4 }),
    carrier: fc.constantFrom<Carrier>('CarrierA', 'CarrierC'),
    key,
  }),
);

/** The amounts a request asks for, in shillings, one per transaction it would create. */
function amountsOf(request: RequestOp): number[] {
  return request.kind === 'send' ? request.amounts : [request.shillings];
}

/** The request hash its key is claimed with: its kind and amounts. */
function hashOf(request: RequestOp): string {
  return `${request.kind}:${amountsOf(request).join(',')}`;
}

/** The transactions a created outcome holds, in order; undefined when nothing was created. */
function createdOf(outcome: AnyOutcome) {
  if (outcome.kind !== 'created') return undefined;
  return 'transactions' in outcome ? outcome.transactions : [outcome.transaction];
}
const resolveOp: fc.Arbitrary<ResolveOp> = fc.oneof(
  fc.record({ kind: fc.constant('complete' as const), pick: fc.nat() }),
  fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat(), paymentCollected: fc.boolean() }),
);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('fund' as const),
      account,
      channel: fc.constantFrom('float' as const, 'airtime' as const),
      minor: fc.integer({ min: 1, max: 60_000 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({ kind: fc.constant('save' as const), account, key: fc.constantFrom(...keys) }),
    weight: 1,
  },
  { arbitrary: requestOp, weight: 4 },
  { arbitrary: resolveOp, weight: 3 },
  {
    arbitrary: fc.record({
      kind: fc.constant('concurrentRequests' as const),
      requests: fc.array(requestOp, { minLength: 2, maxLength: 5 }),
    }),
    weight: 2,
  },
  {
    arbitrary: fc.record({
      kind: fc.constant('concurrentResolutions' as const),
      resolutions: fc.array(resolveOp, { minLength: 2, maxLength: 4 }),
    }),
    weight: 2,
  },
);

interface ModelAccount {
  id: string;
  floatPosted: bigint;
  floatPending: bigint;
  airtimePosted: bigint;
  airtimePending: bigint;
}
interface ModelTransaction {
  reference: string;
  type: 'float' | 'airtime' | 'send';
  account: number;
  amount: bigint;
  carrier: Carrier | undefined;
  state: 'requested' | 'completed' | 'cancelled';
}
interface ModelKey {
  hash: string;
  reference: string;
  response: StoredResponse | undefined;
}

/** The plain in-memory model the ledger must agree with. */
class Model {
  readonly transactions: ModelTransaction[] = [];
  /** Each send created: its first reference and how many transactions it made. */
  readonly sends: { account: number; reference: string; count: number }[] = [];
  private readonly keys = new Map<string, ModelKey>();

  constructor(readonly accounts: ModelAccount[]) {}

  private account(index: number): ModelAccount {
    return this.accounts[index] as ModelAccount;
  }

  fund(index: number, channel: 'float' | 'airtime', minor: bigint): void {
    if (channel === 'float') this.account(index).floatPosted += minor;
    else this.account(index).airtimePosted += minor;
  }

  /** Saves an answer under a held key, as the ledger must: only the first one is kept. */
  save(index: number, key: string, response: StoredResponse): 'saved' | 'answered' {
    const held = this.keys.get(`${index}:${key}`);
    if (held === undefined || held.response !== undefined) return 'answered';
    held.response = response;
    return 'saved';
  }

  /** The transaction a key holds, if it is held. */
  keyReference(index: number, key: string): string | undefined {
    return this.keys.get(`${index}:${key}`)?.reference;
  }

  /** Predicts a batch of requests in arrival order and checks each actual outcome against it. */
  applyRequests(requests: readonly RequestOp[], outcomes: readonly AnyOutcome[]): void {
    const firstInBatch = new Map<string, { hash: string; outcome: AnyOutcome }>();
    requests.forEach((request, index) => {
      const outcome = outcomes[index] as AnyOutcome;
      const amounts = amountsOf(request).map((shillings) => BigInt(shillings) * 100n);
      const total = amounts.reduce((sum, amount) => sum + amount, 0n);
      const hash = hashOf(request);
      const modelAccount = this.account(request.account);
      const keyId = request.key === undefined ? undefined : `${request.account}:${request.key}`;
      const held = keyId === undefined ? undefined : this.keys.get(keyId);
      const first = keyId === undefined ? undefined : firstInBatch.get(keyId);
      if (held !== undefined && (first === undefined || first.outcome.kind !== 'created')) {
        const expected: RequestOutcome =
          held.hash !== hash
            ? { kind: 'idempotency_conflict' }
            : held.response === undefined
              ? { kind: 'idempotency_in_progress', reference: held.reference }
              : { kind: 'idempotent_replay', response: held.response };
        expect(outcome).toEqual(expected);
        if (keyId !== undefined && first === undefined) firstInBatch.set(keyId, { hash, outcome });
        return;
      }
      if (first !== undefined) {
        if (first.hash !== hash) expect(outcome).toEqual({ kind: 'idempotency_conflict' });
        else if (first.outcome.kind === 'created') {
          expect(outcome).toEqual({
            kind: 'idempotency_in_progress',
            reference: createdOf(first.outcome)?.[0]?.reference,
          });
        } else expect(outcome.kind).toBe('insufficient_balance');
        return;
      }
      const available =
        request.kind === 'float'
          ? modelAccount.floatPosted - modelAccount.floatPending
          : modelAccount.airtimePosted - modelAccount.airtimePending;
      if (request.kind !== 'airtime' && available < total) {
        expect(outcome.kind).toBe('insufficient_balance');
      } else {
        const created = createdOf(outcome);
        if (created === undefined)
          throw new Error(`Expected the model's created outcome, received ${outcome.kind}.`);
        // All or nothing: one transaction per amount, in request order.
        expect(created.map((transaction) => transaction.amountMinor)).toEqual(amounts);
        if (request.kind === 'float') modelAccount.floatPending += total;
        if (request.kind === 'send') {
          modelAccount.airtimePending += total;
          this.sends.push({
            account: request.account,
            reference: created[0]?.reference ?? '',
            count: created.length,
          });
        }
        created.forEach((transaction, position) => {
          this.transactions.push({
            reference: transaction.reference,
            type: request.kind,
            account: request.account,
            amount: amounts[position] as bigint,
            carrier: request.kind === 'float' ? undefined : request.carrier,
            state: 'requested',
          });
        });
        if (keyId !== undefined)
          this.keys.set(keyId, { hash, reference: created[0]?.reference ?? '', response: undefined });
      }
      if (keyId !== undefined) firstInBatch.set(keyId, { hash, outcome });
    });
  }

  /** Applies resolutions that ran concurrently: per transaction, exactly one may win. */
  applyResolutions(resolutions: readonly ResolveOp[], outcomes: readonly ResolveOutcome[]): void {
    const byTarget = new Map<ModelTransaction, { op: ResolveOp; outcome: ResolveOutcome }[]>();
    resolutions.forEach((resolution, index) => {
      const target = this.transactions[resolution.pick % this.transactions.length] as ModelTransaction;
      const list = byTarget.get(target) ?? [];
      list.push({ op: resolution, outcome: outcomes[index] as ResolveOutcome });
      byTarget.set(target, list);
    });
    for (const [target, attempts] of byTarget) {
      const winners = attempts.filter((attempt) => attempt.outcome.kind === 'resolved');
      expect(winners).toHaveLength(target.state === 'requested' ? 1 : 0);
      for (const attempt of attempts) {
        if (attempt.outcome.kind !== 'resolved') expect(attempt.outcome.kind).toBe('already_resolved');
      }
      const winner = winners[0];
      if (winner !== undefined) this.resolve(target, winner.op);
    }
  }

  private resolve(target: ModelTransaction, resolution: ResolveOp): void {
    const modelAccount = this.account(target.account);
    target.state = resolution.kind === 'complete' ? 'completed' : 'cancelled';
    if (target.type === 'float') {
      modelAccount.floatPending -= target.amount;
      if (resolution.kind === 'complete') modelAccount.floatPosted -= target.amount;
      return;
    }
    if (target.type === 'send') {
      // Paid from the balance: the reservation is posted or voided; a payment said collected is moot.
      modelAccount.airtimePending -= target.amount;
      if (resolution.kind === 'complete') modelAccount.airtimePosted -= target.amount;
    }
    if (resolution.kind === 'complete' && target.carrier === 'CarrierC') {
      modelAccount.airtimePosted += (target.amount * BigInt(commissionBasisPoints.CarrierC)) / 10_000n;
    }
  }
}

async function run(ledger: Ledger, model: Model, step: Op): Promise<void> {
  const request = (r: RequestOp): Promise<AnyOutcome> => {
    const accountId = (model.accounts[r.account] as ModelAccount).id;
    const idempotency = r.key === undefined ? {} : { idempotency: { key: r.key, requestHash: hashOf(r) } };
    if (r.kind === 'send') {
      return ledger.sendAirtime({
        accountId,
        request: sendRequest(r.amounts, () => ({ network: r.carrier })),
        ...idempotency,
      });
    }
    return r.kind === 'float'
      ? ledger.requestAgentFloat({
          accountId,
          request: floatRequest({ amount: r.shillings }),
          ...idempotency,
        })
      : ledger.requestAirtime({
          accountId,
          request: airtimeRequest({ amount: r.shillings, network: r.carrier }),
          ...idempotency,
        });
  };
  const resolve = (r: ResolveOp): Promise<ResolveOutcome> => {
    const target = model.transactions[r.pick % model.transactions.length] as ModelTransaction;
    return r.kind === 'complete'
      ? ledger.complete(target.reference, { providerCode: 'P' })
      : ledger.cancel(target.reference, { reason: 'cancelled', paymentCollected: r.paymentCollected });
  };
  switch (step.kind) {
    case 'fund': {
      await ledger.fund((model.accounts[step.account] as ModelAccount).id, step.channel, BigInt(step.minor));
      model.fund(step.account, step.channel, BigInt(step.minor));
      return;
    }
    case 'save': {
      const reference = model.keyReference(step.account, step.key);
      if (reference === undefined) return;
      const response = { httpStatus: 200, contentType: 'application/json', body: `saved ${step.key}` };
      const saved = await ledger.saveIdempotentResponse(
        (model.accounts[step.account] as ModelAccount).id,
        step.key,
        reference,
        response,
      );
      expect(saved.kind).toBe(model.save(step.account, step.key, response));
      return;
    }
    case 'float':
    case 'airtime':
    case 'send':
      model.applyRequests([step], [await request(step)]);
      return;
    case 'concurrentRequests':
      model.applyRequests(step.requests, await Promise.all(step.requests.map(request)));
      return;
    case 'complete':
    case 'cancel':
      if (model.transactions.length === 0) return;
      model.applyResolutions([step], [await resolve(step)]);
      return;
    case 'concurrentResolutions':
      if (model.transactions.length === 0) return;
      model.applyResolutions(step.resolutions, await Promise.all(step.resolutions.map(resolve)));
      return;
  }
}

async function expectBalancesOf(ledger: Ledger, model: Model): Promise<void> {
  for (const modelAccount of model.accounts) {
    const float = await ledger.balance(modelAccount.id, 'float');
    const airtime = await ledger.balance(modelAccount.id, 'airtime');
    expect({
      posted: float.postedMinor,
      pending: float.pendingMinor,
      airtimePosted: airtime.postedMinor,
      airtimePending: airtime.pendingMinor,
    }).toEqual({
      posted: modelAccount.floatPosted,
      pending: modelAccount.floatPending,
      airtimePosted: modelAccount.airtimePosted,
      airtimePending: modelAccount.airtimePending,
    });
    expect(float.availableMinor).toBeGreaterThanOrEqual(0n);
    expect(airtime.availableMinor).toBeGreaterThanOrEqual(0n);
  }
}

/** Each send the model created holds all its transactions, and no request wrote a transaction it did not. */
async function expectSendsWhole(ledger: Ledger, test: TestStore, model: Model): Promise<void> {
  for (const send of model.sends) {
    const accountId = (model.accounts[send.account] as ModelAccount).id;
    expect((await ledger.listSentAirtime(accountId, send.reference)).length).toBe(send.count);
  }
  const { rows } = await test.store.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM transactions WHERE account_id = ANY($1::text[])',
    [model.accounts.map((modelAccount) => modelAccount.id)],
  );
  expect(rows[0]?.n).toBe(model.transactions.length);
}

describe.each(testStoreKinds())('the ledger against a model on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, { commissionBasisPoints });
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });

  async function freshModel(): Promise<Model> {
    const accounts = await Promise.all(
      [0, 1].map(async (index) => {
        const created = await ledger.createAccount({ name: `Model ${index}` });
        return { id: created.id, floatPosted: 0n, floatPending: 0n, airtimePosted: 0n, airtimePending: 0n };
      }),
    );
    return new Model(accounts);
  }

  it('keeps every invariant and the model balances through any sequence of operations', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const model = await freshModel();
        for (const step of ops) {
          await run(ledger, model, step);
          await expectBalancesOf(ledger, model);
        }
        await expectSendsWhole(ledger, test, model);
        const report = await ledger.verify();
        expect(report.breaches).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });

  it('never changes a balance by replaying an idempotency key, with or without a stored response', async () => {
    const channels = (current: Model) =>
      Promise.all(
        current.accounts.flatMap((a) => [ledger.balance(a.id, 'float'), ledger.balance(a.id, 'airtime')]),
      );
    await fc.assert(
      fc.asyncProperty(
        fc.array(requestOp, { minLength: 1, maxLength: 6 }),
        fc.uniqueArray(fc.nat({ max: 5 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { minLength: 1, maxLength: 6 }),
        async (originals, savedPicks, replayPicks) => {
          const model = await freshModel();
          await run(ledger, model, { kind: 'fund', account: 0, channel: 'float', minor: 200_000 });
          await run(ledger, model, { kind: 'fund', account: 1, channel: 'float', minor: 200_000 });
          const keyed = originals.map((original, index) => ({ ...original, key: `replay-${index}` }));
          for (const original of keyed) await run(ledger, model, original);
          // Some keys get their response stored, as the server does once it has answered: their replays
          // must return it; the others are still in progress. The model checks every answer.
          for (const pick of savedPicks) {
            const saved = keyed[pick % keyed.length] as RequestOp & { key: string };
            await run(ledger, model, { kind: 'save', account: saved.account, key: saved.key });
          }
          const before = { channels: await channels(model), report: await ledger.verify() };
          expect(before.report.breaches).toEqual([]);
          const replays = replayPicks.map((pick) => keyed[pick % keyed.length] as RequestOp);
          await Promise.all(replays.map((replay) => run(ledger, model, replay)));
          expect({ channels: await channels(model), report: await ledger.verify() }).toEqual(before);
        },
      ),
      { numRuns: 15 },
    );
  });
});
