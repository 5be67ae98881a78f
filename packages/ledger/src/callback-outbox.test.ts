import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Account } from './accounts.js';
import { outboxChannel, type DeliveryFilter } from './callback-outbox.js';
import { createLedger, type Ledger } from './ledger.js';
import { airtimeRequest, floatRequest, referenceOf } from './testing/requests.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';
import { waitFor } from './testing/wait.js';

describe.each(testStoreKinds())('the callback outbox on %s', (kind) => {
  let test: TestStore;
  let ledger: Ledger;
  let clock: Date;
  let account: Account;

  beforeEach(async () => {
    test = await openTestStore(kind);
    clock = new Date('2025-11-21T11:00:00.000Z');
    ledger = createLedger(test.store, { now: () => clock });
    account = await ledger.createAccount({ name: 'Duka Supplies & Co', mobile: '254722000001' });
    await ledger.fund(account.id, 'float', 10_000_000n);
  });
  afterEach(async () => {
    await ledger.close();
    await test.dispose();
  });

  const completedFloat = async (accountId = account.id) => {
    const reference = referenceOf(await ledger.requestAgentFloat({ accountId, request: floatRequest() }));
    await ledger.complete(reference, { providerCode: 'MNA-1' });
    return reference;
  };

  describe('endpoints', () => {
    it('shows the secret once and never lists it', async () => {
      const { endpoint, secret } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://hooks.example.com/topup',
        format: 'xml',
        description: ' orders ',
      });
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(endpoint).toEqual({
        id: expect.stringMatching(/^ep_/) as string,
        accountId: account.id,
        url: 'https://hooks.example.com/topup',
        format: 'xml',
        description: 'orders',
        enabled: true,
        disabledReason: '',
        createdAt: clock,
      });
      const listed = await ledger.listCallbackEndpoints(account.id);
      expect(listed).toEqual([endpoint]);
      expect(JSON.stringify(listed)).not.toContain(secret.slice(6));
      await expect(ledger.endpointSecrets(endpoint.id)).resolves.toEqual([secret]);
    });

    it('refuses a URL that is not absolute http(s), and an unknown account', async () => {
      await expect(
        ledger.addCallbackEndpoint(account.id, { url: 'hooks.example.com', format: 'json' }),
      ).rejects.toMatchObject({
        code: 'invalid_input',
      });
      await expect(
        ledger.addCallbackEndpoint(account.id, { url: 'ftp://example.com/x', format: 'json' }),
      ).rejects.toThrow(/http or https/);
      await expect(
        ledger.addCallbackEndpoint('acct_nobody', { url: 'https://example.com', format: 'json' }),
      ).rejects.toMatchObject({ code: 'account_not_found' });
    });

    it('refuses an endpoint past the account’s limit, counting endpoints not removed', async () => {
      const add = () =>
        ledger.addCallbackEndpoint(
          account.id,
          { url: 'https://a.example', format: 'json' },
          { maxEndpoints: 3 },
        );
      const first = await add();
      await add();
      await add();
      await expect(add()).rejects.toMatchObject({
        code: 'endpoint_limit_reached',
        message: `Expected fewer than 3 callback endpoints on account ${account.id} to add one, found 3; remove one first.`,
      });
      await ledger.removeCallbackEndpoint(account.id, first.endpoint.id);
      await expect(add()).resolves.toMatchObject({ endpoint: { accountId: account.id } });
    });

    it('lets no two concurrent adds past the limit', async () => {
      const answers = await Promise.allSettled(
        Array.from({ length: 12 }, () =>
          ledger.addCallbackEndpoint(account.id, { url: 'https://a.example', format: 'json' }),
        ),
      );
      expect(answers.filter((answer) => answer.status === 'fulfilled')).toHaveLength(10);
      expect(answers.filter((answer) => answer.status === 'rejected')).toHaveLength(2);
      await expect(ledger.listCallbackEndpoints(account.id)).resolves.toHaveLength(10);
    });

    it('keeps the previous secret valid during the grace period of a rotation, and only then', async () => {
      const { endpoint, secret: first } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://a.example',
        format: 'json',
      });
      const second = await ledger.rotateCallbackSecret(account.id, endpoint.id, 3_600);
      expect(second).toMatch(/^whsec_/);
      expect(second).not.toBe(first);
      await expect(ledger.endpointSecrets(endpoint.id)).resolves.toEqual([second, first]);
      clock = new Date(clock.getTime() + 3_600_000);
      await expect(ledger.endpointSecrets(endpoint.id)).resolves.toEqual([second]);
    });

    it("rotates or removes only the account's own endpoints", async () => {
      const other = await ledger.createAccount({ name: 'Other' });
      const { endpoint } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://a.example',
        format: 'json',
      });
      await expect(ledger.rotateCallbackSecret(other.id, endpoint.id, 60)).resolves.toBeUndefined();
      await expect(ledger.removeCallbackEndpoint(other.id, endpoint.id)).resolves.toBe(false);
      await expect(ledger.removeCallbackEndpoint(account.id, 'ep_nothing')).resolves.toBe(false);
      await expect(ledger.removeCallbackEndpoint(account.id, endpoint.id)).resolves.toBe(true);
      await expect(ledger.listCallbackEndpoints(account.id)).resolves.toEqual([]);
      await expect(ledger.rotateCallbackSecret(account.id, endpoint.id, 60)).resolves.toBeUndefined();
    });
  });

  describe('queueing', () => {
    it('queues one delivery per enabled endpoint when a transaction completes, and wakes workers', async () => {
      const wakeups: string[] = [];
      const unsubscribe = await test.store.listen(outboxChannel, (payload) => wakeups.push(payload));
      const { endpoint: one } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://one.example',
        format: 'json',
      });
      const { endpoint: two } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://two.example',
        format: 'xml',
      });
      const { endpoint: removed } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://gone.example',
        format: 'json',
      });
      await ledger.removeCallbackEndpoint(account.id, removed.id);
      const reference = await completedFloat();

      const deliveries = await ledger.listDeliveries(account.id, { reference });
      expect(deliveries.map((delivery) => delivery.endpointId).sort()).toEqual([one.id, two.id].sort());
      expect(
        deliveries.every((delivery) => delivery.status === 'pending' && delivery.event === 'completed'),
      ).toBe(true);
      await waitFor(() => wakeups.includes(reference));
      await unsubscribe();
    });

    it('stores the success envelope with the full transaction data and the balance after completion', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      const reference = await completedFloat();
      const [claimed] = await ledger.claimDeliveries({ workerId: 'w1', limit: 10, leaseMs: 60_000 });
      expect(claimed).toMatchObject({
        reference,
        event: 'completed',
        url: 'https://one.example',
        format: 'json',
        attempts: 0,
      });
      expect(JSON.parse(claimed?.payload ?? '')).toEqual({
        status: { type: 'SUCCESS', code: '0000', message: 'Agent float deposited' },
        data: {
          errors: [],
          sender: {
            name: 'Duka Supplies & Co',
            mobile: '254722000001',
            email: '',
            agent_name: '',
            agent_number: '',
            store_number: '',
          },
          recipient: {
            name: '',
            mobile: '254712345678',
            email: '',
            agent_name: '',
            agent_number: '234567',
            store_number: '765432',
          },
          transaction: {
            type: 'Agent Float',
            reference,
            date: '2025-11-21 14:00:00',
            status: 'Requested',
            state: 'completed',
            currency: 'KES',
            amount: '100',
            note: '',
            code: 'MNA-1',
            source: 'API',
            country: 'KE',
            network: 'MoneyNetA',
          },
          messaging: {
            sender: '',
            recipient: '254712345678',
            message: 'You have received KES 100.00 agent float',
          },
          channel: { type: 'Agent Float', currency: 'KES', balance: '99900.00' },
        },
      });
    });

    it('stores a FAIL/8000 envelope with the reason for a cancelled purchase, without a payment object', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      const reference = referenceOf(
        await ledger.requestAirtime({ accountId: account.id, request: airtimeRequest() }),
      );
      await ledger.cancel(reference, { reason: 'payment declined' });
      const [claimed] = await ledger.claimDeliveries({ workerId: 'w1', limit: 10, leaseMs: 60_000 });
      const envelope = JSON.parse(claimed?.payload ?? '') as {
        status: unknown;
        data: Record<string, unknown>;
      };
      expect(claimed?.event).toBe('cancelled');
      expect(envelope.status).toEqual({ type: 'FAIL', code: '8000', message: 'Purchase Cancelled' });
      expect(Object.keys(envelope.data)).toEqual([
        'errors',
        'sender',
        'recipient',
        'transaction',
        'messaging',
        'channel',
      ]);
      expect(envelope.data.errors).toEqual(['payment declined']);
      expect(envelope.data.transaction).toMatchObject({ reference, status: 'Cancelled', state: 'cancelled' });
    });

    it('queues nothing, and does not wake workers, for an account without endpoints', async () => {
      const reference = await completedFloat();
      await expect(ledger.listDeliveries(account.id, { reference })).resolves.toEqual([]);
    });

    it('rolls the state change and its money back when its deliveries cannot be written', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      const reference = referenceOf(
        await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() }),
      );
      await test.store.query(
        'ALTER TABLE callback_deliveries ADD CONSTRAINT refuse_all CHECK (false) NOT VALID',
      );
      await expect(ledger.complete(reference, { providerCode: 'X' })).rejects.toThrow(/refuse_all/);
      await expect(ledger.findTransaction(reference)).resolves.toMatchObject({
        state: 'requested',
        code: '',
      });
      await expect(ledger.balance(account.id, 'float')).resolves.toMatchObject({
        pendingMinor: 10_000n,
        postedMinor: 10_000_000n,
      });
      expect((await ledger.verify()).breaches).toEqual([]);
    });
  });

  describe('claims and attempts', () => {
    it('claims fairly across accounts: a flooded account’s backlog does not stand in front of another’s', async () => {
      const quiet = await ledger.createAccount({ name: 'Quiet Ltd' });
      await ledger.fund(quiet.id, 'float', 1_000_000n);
      for (const owner of [account.id, quiet.id]) {
        await ledger.addCallbackEndpoint(owner, { url: 'https://hooks.example.com/a', format: 'json' });
      }
      const flood = [];
      for (let index = 0; index < 40; index += 1) flood.push(await completedFloat());
      // Written after the whole flood, and due just as early.
      const quietReference = await completedFloat(quiet.id);

      const first = await ledger.claimDeliveries({ workerId: 'w1', limit: 4, leaseMs: 60_000 });
      expect(first.map((delivery) => delivery.reference)).toContain(quietReference);
      expect(first).toHaveLength(4);
      // Alone with its backlog, the flooded account gets whole batches.
      const next = await ledger.claimDeliveries({
        workerId: 'w1',
        limit: 10,
        leaseMs: 60_000,
        afterAccountId: first.at(-1)?.accountId ?? '',
      });
      expect(next).toHaveLength(10);
      expect(new Set(next.map((delivery) => delivery.accountId))).toEqual(new Set([account.id]));
      expect(flood).toEqual(expect.arrayContaining(next.map((delivery) => delivery.reference)));
    });

    it('goes round the accounts from the one the last claim ended at', async () => {
      const others = [];
      for (let index = 0; index < 3; index += 1) {
        const other = await ledger.createAccount({ name: `Caller ${String(index)}` });
        await ledger.fund(other.id, 'float', 1_000_000n);
        others.push(other.id);
      }
      const owners = [account.id, ...others];
      for (const owner of owners) {
        await ledger.addCallbackEndpoint(owner, { url: 'https://hooks.example.com/a', format: 'json' });
        await completedFloat(owner);
        await completedFloat(owner);
      }
      const served: string[] = [];
      let after: string | undefined;
      for (let round = 0; round < 4; round += 1) {
        const claimed = await ledger.claimDeliveries({
          workerId: 'w1',
          limit: 1,
          leaseMs: 60_000,
          ...(after === undefined ? {} : { afterAccountId: after }),
        });
        served.push(claimed[0]?.accountId ?? 'none');
        after = claimed.at(-1)?.accountId;
      }
      // Every account once in four claims of one, in id order, before any gets a second turn.
      expect(served).toEqual([...owners].sort());
    });

    it('never hands the same delivery to two concurrent claimers', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      await ledger.addCallbackEndpoint(account.id, { url: 'https://two.example', format: 'json' });
      const references = await Promise.all(Array.from({ length: 15 }, () => completedFloat()));
      expect(references).toHaveLength(15);
      const claims = await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          ledger.claimDeliveries({ workerId: `worker-${index % 2}`, limit: 4, leaseMs: 60_000 }),
        ),
      );
      // A claimer whose window another holds may come back short; whatever it leaves, the next claim takes.
      const ids = claims.flat().map((delivery) => delivery.id);
      const rest = await ledger.claimDeliveries({ workerId: 'late', limit: 30, leaseMs: 60_000 });
      const all = [...ids, ...rest.map((delivery) => delivery.id)];
      expect(all).toHaveLength(30);
      expect(new Set(all).size).toBe(30);
      await expect(
        ledger.claimDeliveries({ workerId: 'later', limit: 10, leaseMs: 60_000 }),
      ).resolves.toEqual([]);
    });

    it('hands a delivery out again once its lease has run out', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      await completedFloat();
      const [first] = await ledger.claimDeliveries({ workerId: 'crashed', limit: 1, leaseMs: 30_000 });
      clock = new Date(clock.getTime() + 29_999);
      await expect(ledger.claimDeliveries({ workerId: 'other', limit: 1, leaseMs: 30_000 })).resolves.toEqual(
        [],
      );
      clock = new Date(clock.getTime() + 1);
      const [again] = await ledger.claimDeliveries({ workerId: 'other', limit: 1, leaseMs: 30_000 });
      expect(again?.id).toBe(first?.id);
    });

    it('records attempts and moves the delivery: retry when due, then delivered', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      const reference = await completedFloat();
      const [claimed] = await ledger.claimDeliveries({ workerId: 'w1', limit: 1, leaseMs: 60_000 });
      const deliveryId = claimed?.id ?? '';
      await ledger.recordDeliveryAttempt(deliveryId, {
        workerId: 'w1',
        httpStatus: 503,
        durationMs: 41.6,
        responseExcerpt: 'busy',
        outcome: 'retry',
        nextAttemptAt: new Date(clock.getTime() + 5_000),
      });
      await expect(ledger.claimDeliveries({ workerId: 'w2', limit: 1, leaseMs: 60_000 })).resolves.toEqual(
        [],
      );
      clock = new Date(clock.getTime() + 5_000);
      const [retried] = await ledger.claimDeliveries({ workerId: 'w2', limit: 1, leaseMs: 60_000 });
      expect(retried).toMatchObject({ id: deliveryId, attempts: 1 });
      await ledger.recordDeliveryAttempt(deliveryId, {
        workerId: 'w2',
        httpStatus: 200,
        durationMs: 12,
        responseExcerpt: 'ok',
        outcome: 'delivered',
      });

      const [delivery] = await ledger.listDeliveries(account.id, { reference });
      expect(delivery).toMatchObject({
        id: deliveryId,
        status: 'delivered',
        attemptCount: 2,
        lastError: '',
        deliveredAt: clock,
      });
      expect(delivery?.attempts).toEqual([
        expect.objectContaining({
          workerId: 'w1',
          httpStatus: 503,
          durationMs: 42,
          responseExcerpt: 'busy',
          outcome: 'retry',
        }),
        expect.objectContaining({ workerId: 'w2', httpStatus: 200, outcome: 'delivered', error: undefined }),
      ]);
      await expect(ledger.listDeliveries(account.id, { status: 'pending' })).resolves.toEqual([]);
      clock = new Date(clock.getTime() + 3_600_000);
      await expect(ledger.claimDeliveries({ workerId: 'w3', limit: 1, leaseMs: 60_000 })).resolves.toEqual(
        [],
      );
    });

    it('keeps only the first 20 KB of an answer', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      const reference = await completedFloat();
      const [claimed] = await ledger.claimDeliveries({ workerId: 'w1', limit: 1, leaseMs: 60_000 });
      await ledger.recordDeliveryAttempt(claimed?.id ?? '', {
        workerId: 'w1',
        httpStatus: 500,
        durationMs: 1,
        responseExcerpt: 'é'.repeat(20_000),
        error: 'server error',
        outcome: 'failed',
      });
      const [delivery] = await ledger.listDeliveries(account.id, { reference, status: 'failed' });
      const excerpt = delivery?.attempts[0]?.responseExcerpt ?? '';
      expect(Buffer.byteLength(excerpt)).toBe(20 * 1024);
      expect(excerpt).toBe('é'.repeat(10 * 1024));
      expect(delivery).toMatchObject({ status: 'failed', lastError: 'server error' });
    });

    it('disables an endpoint that answers it is gone, failing its other pending deliveries', async () => {
      const { endpoint } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://one.example',
        format: 'json',
      });
      await completedFloat();
      await completedFloat();
      const [claimed] = await ledger.claimDeliveries({ workerId: 'w1', limit: 1, leaseMs: 60_000 });
      await ledger.recordDeliveryAttempt(claimed?.id ?? '', {
        workerId: 'w1',
        httpStatus: 410,
        durationMs: 3,
        responseExcerpt: '',
        outcome: 'endpoint_gone',
      });
      await expect(ledger.listCallbackEndpoints(account.id)).resolves.toEqual([
        expect.objectContaining({
          id: endpoint.id,
          enabled: false,
          disabledReason: 'the receiver answered HTTP 410',
        }),
      ]);
      const deliveries = await ledger.listDeliveries(account.id, {});
      expect(deliveries.map((delivery) => delivery.status)).toEqual(['failed', 'failed']);
      const reference = await completedFloat();
      await expect(ledger.listDeliveries(account.id, { reference })).resolves.toEqual([]);
    });

    it('moves a delivery on only for the worker that holds its lease, keeping a late attempt in the history', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      const reference = await completedFloat();
      const [first] = await ledger.claimDeliveries({ workerId: 'slow', limit: 1, leaseMs: 30_000 });
      clock = new Date(clock.getTime() + 30_000);
      const [taken] = await ledger.claimDeliveries({ workerId: 'fresh', limit: 1, leaseMs: 30_000 });
      expect(taken?.id).toBe(first?.id);
      const deliveryId = first?.id ?? '';

      // The worker whose lease ran out reports last: its failure must not end the delivery or free the lease.
      await ledger.recordDeliveryAttempt(deliveryId, {
        workerId: 'slow',
        httpStatus: 500,
        durationMs: 30_000,
        responseExcerpt: 'late',
        outcome: 'failed',
      });
      const [after] = await ledger.listDeliveries(account.id, { reference });
      expect(after).toMatchObject({ status: 'pending', attemptCount: 0, lastError: '' });
      expect(after?.attempts).toEqual([expect.objectContaining({ workerId: 'slow', outcome: 'failed' })]);
      await expect(ledger.claimDeliveries({ workerId: 'third', limit: 1, leaseMs: 30_000 })).resolves.toEqual(
        [],
      );

      await ledger.recordDeliveryAttempt(deliveryId, {
        workerId: 'fresh',
        httpStatus: 200,
        durationMs: 5,
        responseExcerpt: 'ok',
        outcome: 'delivered',
      });
      const [delivered] = await ledger.listDeliveries(account.id, { reference });
      expect(delivered).toMatchObject({ status: 'delivered', attemptCount: 1 });
    });

    it('moves several deliveries recorded together only where each worker holds the lease', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      const references = [await completedFloat(), await completedFloat()];
      const [mine, theirs] = await ledger.claimDeliveries({ workerId: 'w1', limit: 2, leaseMs: 60_000 });
      // Recorded in one flush: the second names a worker that never held the lease.
      await Promise.all([
        ledger.recordDeliveryAttempt(mine?.id ?? '', {
          workerId: 'w1',
          httpStatus: 200,
          durationMs: 1,
          responseExcerpt: '',
          outcome: 'delivered',
        }),
        ledger.recordDeliveryAttempt(theirs?.id ?? '', {
          workerId: 'w2',
          httpStatus: 200,
          durationMs: 1,
          responseExcerpt: '',
          outcome: 'delivered',
        }),
      ]);
      const statuses = await Promise.all(
        references.map(async (reference) => (await ledger.listDeliveries(account.id, { reference }))[0]),
      );
      const byId = new Map(statuses.map((delivery) => [delivery?.id, delivery?.status]));
      expect(byId.get(mine?.id)).toBe('delivered');
      expect(byId.get(theirs?.id)).toBe('pending');
    });

    it('releases the leases a worker holds on pending deliveries, and no one else’s', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      await completedFloat();
      await completedFloat();
      const [mine] = await ledger.claimDeliveries({ workerId: 'stopping', limit: 1, leaseMs: 60_000 });
      const [theirs] = await ledger.claimDeliveries({ workerId: 'other', limit: 1, leaseMs: 60_000 });
      await expect(ledger.releaseDeliveries('stopping', [mine?.id ?? '', theirs?.id ?? ''])).resolves.toBe(1);
      const again = await ledger.claimDeliveries({ workerId: 'next', limit: 10, leaseMs: 60_000 });
      expect(again.map((delivery) => delivery.id)).toEqual([mine?.id]);
      await expect(ledger.releaseDeliveries('stopping', [])).resolves.toBe(0);
    });

    it('refuses to record an attempt for an unknown delivery', async () => {
      await expect(
        ledger.recordDeliveryAttempt('cb_nothing', {
          workerId: 'w',
          durationMs: 1,
          responseExcerpt: '',
          outcome: 'delivered',
        }),
      ).rejects.toThrow(/Expected callback delivery cb_nothing/);
    });
  });

  describe('resending', () => {
    it('queues a failed delivery again under the same webhook id, and creates one for a newer endpoint', async () => {
      const { endpoint: old } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://old.example',
        format: 'json',
      });
      const reference = await completedFloat();
      const [claimed] = await ledger.claimDeliveries({ workerId: 'w1', limit: 1, leaseMs: 60_000 });
      await ledger.recordDeliveryAttempt(claimed?.id ?? '', {
        workerId: 'w1',
        durationMs: 1,
        responseExcerpt: '',
        outcome: 'failed',
      });
      const { endpoint: newer } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://new.example',
        format: 'json',
      });

      await expect(ledger.resendCallbacks(account.id, reference, old.id)).resolves.toBe(1);
      const again = await ledger.claimDeliveries({ workerId: 'w2', limit: 10, leaseMs: 60_000 });
      expect(again.map((delivery) => delivery.id)).toEqual([claimed?.id]);

      await expect(ledger.resendCallbacks(account.id, reference)).resolves.toBe(2);
      const deliveries = await ledger.listDeliveries(account.id, { reference });
      expect(deliveries.map((delivery) => delivery.endpointId).sort()).toEqual([old.id, newer.id].sort());
      expect(deliveries.every((delivery) => delivery.status === 'pending')).toBe(true);
    });

    it('restarts the retry schedule of a resent delivery, keeping its attempts', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      const reference = await completedFloat();
      const fail = async (outcome: 'retry' | 'failed') => {
        const [claimed] = await ledger.claimDeliveries({ workerId: 'w1', limit: 1, leaseMs: 60_000 });
        await ledger.recordDeliveryAttempt(claimed?.id ?? '', {
          workerId: 'w1',
          httpStatus: 500,
          durationMs: 1,
          responseExcerpt: '',
          outcome,
        });
        return claimed;
      };
      expect(await fail('retry')).toMatchObject({ attempts: 0, attemptsInSchedule: 0 });
      expect(await fail('failed')).toMatchObject({ attempts: 1, attemptsInSchedule: 1 });

      await expect(ledger.resendCallbacks(account.id, reference)).resolves.toBe(1);
      expect(await fail('retry')).toMatchObject({ attempts: 2, attemptsInSchedule: 0 });
      expect(await fail('retry')).toMatchObject({ attempts: 3, attemptsInSchedule: 1 });
      const [delivery] = await ledger.listDeliveries(account.id, { reference });
      expect(delivery).toMatchObject({ status: 'pending', attemptCount: 4 });
      expect(delivery?.attempts).toHaveLength(4);
    });

    it.each(['failed', 'delivered'] as const)(
      'sends a delivery resent during an attempt again after it, even when that attempt ends %s',
      async (outcome) => {
        await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
        const reference = await completedFloat();
        const [inFlight] = await ledger.claimDeliveries({ workerId: 'w1', limit: 1, leaseMs: 60_000 });
        await expect(ledger.resendCallbacks(account.id, reference)).resolves.toBe(1);
        // The attempt in flight may have been the schedule's last, or may already have been answered.
        await ledger.recordDeliveryAttempt(inFlight?.id ?? '', {
          workerId: 'w1',
          httpStatus: outcome === 'failed' ? 503 : 200,
          durationMs: 1,
          responseExcerpt: '',
          outcome,
        });
        const [delivery] = await ledger.listDeliveries(account.id, { reference });
        expect(delivery).toMatchObject({
          status: 'pending',
          attemptCount: 1,
          nextAttemptAt: clock,
          deliveredAt: undefined,
        });
        const [again] = await ledger.claimDeliveries({ workerId: 'w2', limit: 1, leaseMs: 60_000 });
        expect(again).toMatchObject({ id: inFlight?.id, attempts: 1, attemptsInSchedule: 0 });
      },
    );

    it("resends nothing for a transaction still requested, or another account's", async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      const requested = referenceOf(
        await ledger.requestAgentFloat({ accountId: account.id, request: floatRequest() }),
      );
      await expect(ledger.resendCallbacks(account.id, requested)).resolves.toBe(0);
      const other = await ledger.createAccount({ name: 'Other' });
      const reference = await completedFloat();
      await expect(ledger.resendCallbacks(other.id, reference)).resolves.toBe(0);
      await expect(ledger.listDeliveries(other.id, {})).resolves.toEqual([]);
    });
  });

  /** Fails every due delivery, as a worker would after the schedule's last attempt. */
  const failDue = async () => {
    const claimed = await ledger.claimDeliveries({ workerId: 'w1', limit: 100, leaseMs: 60_000 });
    for (const delivery of claimed) {
      await ledger.recordDeliveryAttempt(delivery.id, {
        workerId: 'w1',
        httpStatus: 500,
        durationMs: 1,
        responseExcerpt: '',
        outcome: 'failed',
      });
    }
    return claimed.map((delivery) => delivery.id);
  };

  describe('listing a page at a time', () => {
    /** Every delivery the account's pages show, following each page's cursor, and the pages' sizes. */
    const everyPage = async (filter: Omit<DeliveryFilter, 'cursor'>) => {
      const ids: string[] = [];
      const sizes: number[] = [];
      let cursor: string | undefined;
      do {
        const page = await ledger.listDeliveryPage(account.id, {
          ...filter,
          ...(cursor === undefined ? {} : { cursor }),
        });
        ids.push(...page.deliveries.map((delivery) => delivery.id));
        sizes.push(page.deliveries.length);
        cursor = page.nextCursor === '' ? undefined : page.nextCursor;
      } while (cursor !== undefined);
      return { ids, sizes };
    };

    it('shows every delivery once, newest first by time then id, a page at a time', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      await ledger.addCallbackEndpoint(account.id, { url: 'https://two.example', format: 'json' });
      for (let minute = 0; minute < 4; minute += 1) {
        clock = new Date(Date.parse('2025-11-21T11:00:00.000Z') + minute * 60_000);
        await completedFloat();
      }
      // Two deliveries a microsecond apart within one millisecond: a cursor cut to milliseconds would
      // skip or repeat one of them.
      await test.store.query(
        `UPDATE callback_deliveries SET created_at = created_at + interval '1 microsecond'
         WHERE id = (SELECT max(id) FROM callback_deliveries WHERE account_id = $1)`,
        [account.id],
      );
      const { rows } = await test.store.query<{ id: string }>(
        `SELECT id FROM callback_deliveries WHERE account_id = $1 ORDER BY created_at DESC, id DESC`,
        [account.id],
      );
      expect(rows).toHaveLength(8);

      const paged = await everyPage({ limit: 3 });
      expect(paged.ids).toEqual(rows.map((row) => row.id));
      expect(paged.sizes).toEqual([3, 3, 2]);
      const whole = await ledger.listDeliveryPage(account.id, { limit: 8 });
      expect(whole.nextCursor).toBe('');
      expect((await ledger.listDeliveryPage(account.id)).deliveries).toHaveLength(8);
    });

    it('narrows by endpoint, status, reference and creation time, and never shows another account’s', async () => {
      const { endpoint: one } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://one.example',
        format: 'json',
      });
      const { endpoint: two } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://two.example',
        format: 'json',
      });
      const early = await completedFloat();
      await failDue();
      clock = new Date('2025-11-21T12:00:00.000Z');
      const late = await completedFloat();
      const other = await ledger.createAccount({ name: 'Other' });
      await ledger.fund(other.id, 'float', 10_000_000n);
      await ledger.addCallbackEndpoint(other.id, { url: 'https://other.example', format: 'json' });
      await completedFloat(other.id);

      const shown = async (filter: DeliveryFilter) =>
        (await ledger.listDeliveryPage(account.id, filter)).deliveries.map(
          (delivery) => `${delivery.reference} ${delivery.endpointId} ${delivery.status}`,
        );
      expect(await shown({ endpointId: one.id })).toEqual([
        `${late} ${one.id} pending`,
        `${early} ${one.id} failed`,
      ]);
      expect((await shown({ status: 'failed' })).sort()).toEqual(
        [`${early} ${one.id} failed`, `${early} ${two.id} failed`].sort(),
      );
      expect(await shown({ reference: late, endpointId: two.id })).toEqual([`${late} ${two.id} pending`]);
      // from is inclusive and to exclusive; without an offset a bound is Nairobi time (UTC+3).
      expect(await shown({ from: '2025-11-21T12:00:00Z', endpointId: one.id })).toEqual([
        `${late} ${one.id} pending`,
      ]);
      expect(await shown({ to: '2025-11-21T15:00:00', endpointId: one.id })).toEqual([
        `${early} ${one.id} failed`,
      ]);
      expect(await shown({ from: '2025-11-22' })).toEqual([]);
      expect(await shown({ endpointId: 'ep_other' })).toEqual([]);
      const theirs = await ledger.listDeliveryPage(other.id, { limit: 1 });
      expect(theirs.deliveries).toHaveLength(1);
      expect(theirs.nextCursor).toBe('');
      // A cursor naming another account's delivery only positions this account's listing.
      const mine = await ledger.listDeliveryPage(account.id, { limit: 1 });
      const after = await ledger.listDeliveryPage(other.id, { cursor: mine.nextCursor });
      expect(
        after.deliveries.every((delivery) => delivery.reference !== early && delivery.reference !== late),
      ).toBe(true);
    });

    it('refuses a limit, bound or cursor it cannot read', async () => {
      for (const filter of [{ limit: 0 }, { limit: 101 }, { from: 'yesterday' }, { cursor: 'nope' }]) {
        await expect(ledger.listDeliveryPage(account.id, filter)).rejects.toMatchObject({
          code: 'invalid_input',
        });
      }
    });

    it('reads a page as a range of the listing index, the cursor included', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      await completedFloat();
      const { nextCursor } = await ledger.listDeliveryPage(account.id, { limit: 1 });
      expect(nextCursor).toBe('');
      const plan = await test.store.transaction(async (tx) => {
        await tx.query('SET LOCAL enable_seqscan = off');
        const { rows } = await tx.query<Record<string, string>>(
          `EXPLAIN SELECT id FROM callback_deliveries
           WHERE account_id = $1 AND (created_at, id) < ('epoch'::timestamptz + $2::bigint * interval '1 microsecond', $3)
           ORDER BY created_at DESC, id DESC LIMIT 51`,
          [account.id, '1763723109120453', 'cb_x'],
        );
        return rows.map((row) => Object.values(row).join('')).join('\n');
      });
      expect(plan).toContain('callback_deliveries_account_newest');
      expect(plan).toMatch(/Index Cond: \(\(account_id = .*\) AND \(ROW\(created_at, id\) < ROW/);
      expect(plan).not.toContain('Sort');
    });
  });

  describe('resending failed deliveries', () => {
    it('queues every failed delivery since a time again, oldest first, restarting its schedule', async () => {
      const { endpoint } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://one.example',
        format: 'json',
      });
      const before = await completedFloat();
      await failDue();
      clock = new Date('2025-11-21T11:30:00.000Z');
      const first = await completedFloat();
      const second = await completedFloat();
      const failed = await failDue();
      clock = new Date('2025-11-21T11:40:00.000Z');
      const delivered = await completedFloat();
      const [claimed] = await ledger.claimDeliveries({ workerId: 'w1', limit: 1, leaseMs: 60_000 });
      await ledger.recordDeliveryAttempt(claimed?.id ?? '', {
        workerId: 'w1',
        httpStatus: 200,
        durationMs: 1,
        responseExcerpt: '',
        outcome: 'delivered',
      });
      const pending = await completedFloat();

      // 14:30 in Nairobi is 11:30 UTC.
      const resend = await ledger.resendFailedCallbacks(account.id, { since: '2025-11-21T14:30:00' });
      expect(resend).toEqual({
        kind: 'queued',
        queued: 2,
        more: false,
        since: new Date('2025-11-21T11:30:00.000Z'),
      });
      const byReference = new Map(
        (await ledger.listDeliveries(account.id, {})).map((delivery) => [delivery.reference, delivery]),
      );
      expect(byReference.get(before)).toMatchObject({ status: 'failed' });
      expect(byReference.get(first)).toMatchObject({
        status: 'pending',
        attemptCount: 1,
        nextAttemptAt: clock,
      });
      expect(byReference.get(delivered)).toMatchObject({ status: 'delivered' });
      expect(byReference.get(pending)).toMatchObject({ status: 'pending', attemptCount: 0 });

      const again = await ledger.claimDeliveries({ workerId: 'w2', limit: 10, leaseMs: 60_000 });
      const resent = again.filter((delivery) => failed.includes(delivery.id));
      expect(resent.map((delivery) => delivery.reference).sort()).toEqual([first, second].sort());
      expect(resent.every((delivery) => delivery.attempts === 1 && delivery.attemptsInSchedule === 0)).toBe(
        true,
      );
      expect(resent.every((delivery) => delivery.endpointId === endpoint.id)).toBe(true);
    });

    it('queues at most the limit per call, oldest first, saying when more are left', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      const references: string[] = [];
      for (let minute = 0; minute < 3; minute += 1) {
        clock = new Date(Date.parse('2025-11-21T11:00:00.000Z') + minute * 60_000);
        references.push(await completedFloat());
      }
      await failDue();
      const since = '2025-11-21T11:00:00Z';
      await expect(ledger.resendFailedCallbacks(account.id, { since, limit: 2 })).resolves.toMatchObject({
        queued: 2,
        more: true,
      });
      const pending = await ledger.listDeliveries(account.id, { status: 'pending' });
      expect(pending.map((delivery) => delivery.reference).sort()).toEqual(references.slice(0, 2).sort());
      await expect(ledger.resendFailedCallbacks(account.id, { since, limit: 2 })).resolves.toMatchObject({
        queued: 1,
        more: false,
      });
      await expect(ledger.resendFailedCallbacks(account.id, { since, limit: 2 })).resolves.toMatchObject({
        queued: 0,
        more: false,
      });
    });

    it('queues only to enabled endpoints of the account, or the one named', async () => {
      const { endpoint: one } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://one.example',
        format: 'json',
      });
      const { endpoint: two } = await ledger.addCallbackEndpoint(account.id, {
        url: 'https://two.example',
        format: 'json',
      });
      await completedFloat();
      await failDue();
      const other = await ledger.createAccount({ name: 'Other' });
      await ledger.fund(other.id, 'float', 10_000_000n);
      const { endpoint: theirs } = await ledger.addCallbackEndpoint(other.id, {
        url: 'https://other.example',
        format: 'json',
      });
      await completedFloat(other.id);
      await failDue();
      const since = '2025-11-21';

      await expect(
        ledger.resendFailedCallbacks(account.id, { since, endpointId: theirs.id }),
      ).resolves.toEqual({ kind: 'endpoint_not_found' });
      await expect(
        ledger.resendFailedCallbacks(account.id, { since, endpointId: one.id }),
      ).resolves.toMatchObject({
        queued: 1,
      });
      await ledger.removeCallbackEndpoint(account.id, two.id);
      await expect(ledger.resendFailedCallbacks(account.id, { since, endpointId: two.id })).resolves.toEqual({
        kind: 'endpoint_not_found',
      });
      // The removed endpoint's failed delivery stays failed, and the other account's is untouched.
      await expect(ledger.resendFailedCallbacks(account.id, { since })).resolves.toMatchObject({ queued: 0 });
      await expect(ledger.listDeliveries(other.id, { status: 'failed' })).resolves.toHaveLength(1);
      await expect(ledger.resendFailedCallbacks(account.id, { since: 'soon' })).rejects.toMatchObject({
        code: 'invalid_input',
      });
    });

    it('wakes the workers when it queues something', async () => {
      await ledger.addCallbackEndpoint(account.id, { url: 'https://one.example', format: 'json' });
      await completedFloat();
      await failDue();
      const wakeups: string[] = [];
      const unsubscribe = await test.store.listen(outboxChannel, (payload) => wakeups.push(payload));
      await ledger.resendFailedCallbacks(account.id, { since: '2025-11-21' });
      await waitFor(() => wakeups.length > 0);
      await unsubscribe();
    });
  });
});
