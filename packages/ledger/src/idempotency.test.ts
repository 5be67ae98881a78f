import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from './accounts.js';
import { idempotencyWindowMs } from './idempotency.js';
import { createLedger, type Ledger } from './ledger.js';
import type { RequestOutcome, StoredResponse } from './outcomes.js';
import { airtimeRequest, floatRequest, referenceOf } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';

const response: StoredResponse = {
  httpStatus: 200,
  contentType: 'application/json',
  body: '{"status":{"type":"SUCCESS","code":"0000","message":"Agent float requested"}}',
  headers: { 'X-Request-Id': 'req-1' },
};

describe.each(testStoreKinds())('idempotency keys on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  let clock = new Date('2025-11-21T08:00:00.000Z');
  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, { now: () => clock });
  });
  afterAll(async () => {
    expect((await ledger.verify()).breaches).toEqual([]);
    await ledger.close();
    await test.dispose();
  });

  async function account(floatMinor = 1_000_000n): Promise<Account> {
    const created = await ledger.createAccount({ name: 'Keyed Ltd' });
    await ledger.fund(created.id, 'float', floatMinor);
    return created;
  }

  const floatWithKey = (accountId: string, key: string, requestHash = 'hash-a', amount = 100) =>
    ledger.requestAgentFloat({
      accountId,
      request: floatRequest({ amount }),
      idempotency: { key, requestHash },
    });

  it('answers a retry in progress, then replays the stored response, without moving money again', async () => {
    const caller = await account();
    const reference = referenceOf(await floatWithKey(caller.id, 'key-1'));
    const afterFirst = await ledger.balance(caller.id, 'float');

    await expect(floatWithKey(caller.id, 'key-1')).resolves.toEqual({
      kind: 'idempotency_in_progress',
      reference,
    });
    await ledger.saveIdempotentResponse(caller.id, 'key-1', reference, response);
    await expect(floatWithKey(caller.id, 'key-1')).resolves.toEqual({ kind: 'idempotent_replay', response });
    await expect(ledger.findIdempotentResponse(caller.id, 'key-1')).resolves.toEqual(response);
    await expect(ledger.balance(caller.id, 'float')).resolves.toEqual(afterFirst);
  });

  it('refuses the same key with another request as a conflict', async () => {
    const caller = await account();
    await floatWithKey(caller.id, 'key-2', 'hash-a');
    await expect(floatWithKey(caller.id, 'key-2', 'hash-b', 200)).resolves.toEqual({
      kind: 'idempotency_conflict',
    });
  });

  it('keeps the first stored response when a second is saved', async () => {
    const caller = await account();
    const reference = referenceOf(await floatWithKey(caller.id, 'key-3'));
    await expect(ledger.saveIdempotentResponse(caller.id, 'key-3', reference, response)).resolves.toEqual({
      kind: 'saved',
    });
    await expect(
      ledger.saveIdempotentResponse(caller.id, 'key-3', reference, {
        ...response,
        body: 'second',
        headers: {},
      }),
    ).resolves.toEqual({ kind: 'answered', response });
    await expect(ledger.findIdempotentResponse(caller.id, 'key-3')).resolves.toEqual(response);
  });

  it('never stores an answer about a transaction the key no longer holds', async () => {
    const caller = await account();
    const first = referenceOf(await floatWithKey(caller.id, 'key-5'));
    const failed = { ...response, httpStatus: 502, body: 'gateway error for the first transaction' };
    await expect(ledger.releaseIdempotencyKey(caller.id, 'key-5', first)).resolves.toBe(true);
    await expect(ledger.saveIdempotentResponse(caller.id, 'key-5', first, failed)).resolves.toEqual({
      kind: 'absent',
    });

    const second = referenceOf(await floatWithKey(caller.id, 'key-5'));
    await expect(ledger.saveIdempotentResponse(caller.id, 'key-5', first, failed)).resolves.toEqual({
      kind: 'held_by_another',
      reference: second,
    });
    await expect(ledger.findIdempotentResponse(caller.id, 'key-5')).resolves.toBeUndefined();

    await expect(ledger.saveIdempotentResponse(caller.id, 'key-5', second, response)).resolves.toEqual({
      kind: 'saved',
    });
    await expect(ledger.saveIdempotentResponse(caller.id, 'key-5', first, failed)).resolves.toEqual({
      kind: 'answered',
      response,
    });
    await expect(ledger.findIdempotentResponse(caller.id, 'key-5')).resolves.toEqual(response);
  });

  it('treats a key older than 24 hours as new', async () => {
    const caller = await account();
    const first = referenceOf(await floatWithKey(caller.id, 'key-4'));
    await ledger.saveIdempotentResponse(caller.id, 'key-4', first, response);
    clock = new Date(clock.getTime() + idempotencyWindowMs + 1);
    await expect(ledger.findIdempotentResponse(caller.id, 'key-4')).resolves.toBeUndefined();
    const second = referenceOf(await floatWithKey(caller.id, 'key-4', 'hash-other'));
    expect(second).not.toBe(first);
    await expect(floatWithKey(caller.id, 'key-4', 'hash-other')).resolves.toEqual({
      kind: 'idempotency_in_progress',
      reference: second,
    });
  });

  it('holds a key until exactly 24 hours have passed', async () => {
    const caller = await account();
    await floatWithKey(caller.id, 'key-5');
    clock = new Date(clock.getTime() + idempotencyWindowMs - 1);
    await expect(floatWithKey(caller.id, 'key-5', 'hash-b')).resolves.toEqual({
      kind: 'idempotency_conflict',
    });
  });

  it('keeps keys apart per account', async () => {
    const [one, two] = [await account(), await account()];
    await floatWithKey(one.id, 'shared-key');
    await expect(floatWithKey(two.id, 'shared-key', 'hash-z')).resolves.toMatchObject({ kind: 'created' });
  });

  it('creates the first of several same-key requests in one batch and holds the rest in progress', async () => {
    const caller = await account();
    const outcomes = await Promise.all([1, 2, 3].map(() => floatWithKey(caller.id, 'batched')));
    const reference = referenceOf(outcomes[0] as RequestOutcome);
    expect(outcomes.slice(1)).toEqual([
      { kind: 'idempotency_in_progress', reference },
      { kind: 'idempotency_in_progress', reference },
    ]);
    await expect(ledger.balance(caller.id, 'float')).resolves.toMatchObject({ pendingMinor: 10_000n });
  });

  it('answers a same-key request with another body in the same batch as a conflict', async () => {
    const caller = await account();
    const [first, second] = await Promise.all([
      floatWithKey(caller.id, 'batched-2', 'hash-a'),
      floatWithKey(caller.id, 'batched-2', 'hash-b', 300),
    ]);
    expect(first.kind).toBe('created');
    expect(second).toEqual({ kind: 'idempotency_conflict' });
  });

  it('frees the key of a request refused for insufficient balance, so a retry after funding goes through', async () => {
    const caller = await account(5_000n);
    await expect(floatWithKey(caller.id, 'short')).resolves.toMatchObject({ kind: 'insufficient_balance' });
    await ledger.fund(caller.id, 'float', 5_000n);
    await expect(floatWithKey(caller.id, 'short')).resolves.toMatchObject({ kind: 'created' });
  });

  it('applies to airtime purchases as well', async () => {
    const caller = await account();
    const claim = { key: 'airtime-key', requestHash: 'h' };
    const reference = referenceOf(
      await ledger.requestAirtime({ accountId: caller.id, request: airtimeRequest(), idempotency: claim }),
    );
    await expect(
      ledger.requestAirtime({ accountId: caller.id, request: airtimeRequest(), idempotency: claim }),
    ).resolves.toEqual({
      kind: 'idempotency_in_progress',
      reference,
    });
  });
});

describe.each(testStoreKinds())('purging expired idempotency keys on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  let clock = new Date('2025-11-21T08:00:00.000Z');
  beforeAll(async () => {
    test = await openTestStore(kind);
    ledger = createLedger(test.store, { now: () => clock });
  });
  afterAll(async () => {
    await ledger.close();
    await test.dispose();
  });

  async function keysOf(accountId: string): Promise<string[]> {
    const { rows } = await test.store.query<{ key: string }>(
      'SELECT key FROM idempotency_keys WHERE account_id = $1 ORDER BY key',
      [accountId],
    );
    return rows.map((row) => row.key);
  }

  async function keyed(accountId: string, key: string): Promise<RequestOutcome> {
    return ledger.requestAgentFloat({
      accountId,
      request: floatRequest(),
      idempotency: { key, requestHash: 'h' },
    });
  }

  it('deletes keys older than 24 hours and keeps younger ones, which still answer', async () => {
    const caller = await ledger.createAccount({ name: 'Purged Ltd' });
    await ledger.fund(caller.id, 'float', 1_000_000n);
    const old = referenceOf(await keyed(caller.id, 'old'));
    await ledger.saveIdempotentResponse(caller.id, 'old', old, response);
    clock = new Date(clock.getTime() + 1_000);
    const young = referenceOf(await keyed(caller.id, 'young'));
    const balance = await ledger.balance(caller.id, 'float');

    clock = new Date(clock.getTime() + idempotencyWindowMs - 1_000 - 1);
    await expect(ledger.purgeExpiredIdempotencyKeys()).resolves.toBe(0);
    expect(await keysOf(caller.id)).toEqual(['old', 'young']);

    clock = new Date(clock.getTime() + 1);
    await expect(ledger.purgeExpiredIdempotencyKeys()).resolves.toBe(1);
    expect(await keysOf(caller.id)).toEqual(['young']);
    await expect(ledger.findIdempotentResponse(caller.id, 'old')).resolves.toBeUndefined();
    await expect(keyed(caller.id, 'young')).resolves.toEqual({
      kind: 'idempotency_in_progress',
      reference: young,
    });
    await expect(ledger.balance(caller.id, 'float')).resolves.toEqual(balance);
    expect((await ledger.verify()).breaches).toEqual([]);
  });

  it('deletes at most the given number of keys per call', async () => {
    // Earlier tests' keys expire first, so that only this test's keys are left to count.
    clock = new Date(clock.getTime() + idempotencyWindowMs);
    await ledger.purgeExpiredIdempotencyKeys();
    const caller = await ledger.createAccount({ name: 'Batched Purge Ltd' });
    await ledger.fund(caller.id, 'float', 1_000_000n);
    for (const key of ['a', 'b', 'c', 'd', 'e']) await keyed(caller.id, key);
    clock = new Date(clock.getTime() + idempotencyWindowMs);
    const purged = [];
    for (let call = 0; call < 4; call += 1) purged.push(await ledger.purgeExpiredIdempotencyKeys(2));
    expect(purged).toEqual([2, 2, 1, 0]);
    expect(await keysOf(caller.id)).toEqual([]);
  });

  it('refuses a limit below one key', async () => {
    await expect(ledger.purgeExpiredIdempotencyKeys(0)).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

describe.skipIf(!testStoreKinds().includes('postgres'))('idempotency across two pools on PostgreSQL', () => {
  let test: TestStore;
  beforeAll(async () => {
    test = await openTestStore('postgres');
  });
  afterAll(async () => {
    await test.dispose();
  });

  it('creates one transaction when two processes race with the same key', async () => {
    const first = createLedger(test.store);
    const second = createLedger(await test.openSecondStore());
    const caller = await first.createAccount({ name: 'Racer' });
    await first.fund(caller.id, 'float', 10_000_000n);
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        (index % 2 === 0 ? first : second).requestAgentFloat({
          accountId: caller.id,
          request: floatRequest(),
          idempotency: { key: `race-${index % 4}`, requestHash: 'same' },
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.kind === 'created')).toHaveLength(4);
    expect(outcomes.filter((outcome) => outcome.kind === 'idempotency_in_progress')).toHaveLength(36);
    await expect(first.balance(caller.id, 'float')).resolves.toMatchObject({ pendingMinor: 40_000n });
    await Promise.all([first.close(), second.close()]);
  });
});
