// Money that is never paid out twice, proven end to end: the service in live mode against the fake Daraja
// and the fake Africa's Talking over real HTTP, one test per way issue 25 found to lose money. A result
// that contradicts what is recorded moves nothing and waits for an operator with its evidence (counted in
// /metrics, logged at error); an operator's settlement never completes a purchase whose airtime was not
// sent; a payment that names another amount or phone moves nothing; only a documented final code declines
// a payment, and a paid callback after a decline is kept for an operator; a delivery whose answer was
// lost or came back a duplicate is asked about, never sent again and never refunded; and of two workers
// at once only one makes each call. Timeouts are seconds long here (the transaction's, the reconciliation
// window, Africa's Talking's duplicate windows), so what the service does at the end of each is seen.
// What the providers took is read from the fakes, not what they were sent: a call refused for a token
// another process renewed meanwhile took nothing, and is made again with the new one. On each store.

import type { Store, TransactionLeg } from '@topup/ledger';
import {
  startLiveFakes,
  type FakeAfricasTalking,
  type FakeDaraja,
  type LiveFakes,
} from '@topup/providers/fakes';
import { assembleCore, workerSettingsOf } from '@topup/service';
import { parseBuyAirtime, parseSendAgentFloat } from '@topup/validation';
import { startWorker } from '@topup/worker';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAnswerDroppingFront, type AnswerDroppingFront } from './testing/answer-dropping-front.js';
import { runCli } from './testing/child-process.js';
import { eventually } from './testing/eventually.js';
import { freePort } from './testing/free-port.js';
import { captureLogs, type LogCapture } from './testing/log-capture.js';
import { startTestService, type TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf } from './testing/wire.js';

const webhookToken = 'wh_money_safety_0123456789abcdef0123';
/** Generous: the machine running the suite may be busy. */
const waitMs = 30_000;
const testTimeoutMs = 90_000;

/** How the fakes behave here: quick prompts and deliveries, slower Results, short duplicate windows. */
const fakeTiming = {
  delayMs: 250,
  resultDelayMs: 1_500,
  idempotencyWindowMs: 2_000,
  duplicateWindowMs: 2_000,
};

/** A purchase of `amount` KES of Safaricom airtime for `recipient`, paid by `payer` on M-Pesa. */
function purchase(payer: string, recipient: string, amount = '100') {
  return {
    mobile: recipient,
    amount,
    network: 'CarrierA',
    payment_network: 'MoneyNetA',
    payment_mobile: payer,
  };
}

/** The value of one sample in a Prometheus text exposition, or 0 when it is not there yet. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

/** The phone numbers an Africa's Talking send names, as its form body carries them. */
function recipientsOf(body: string): string[] {
  const list = JSON.parse(new URLSearchParams(body).get('recipients') ?? '[]') as { phoneNumber: string }[];
  return list.map((recipient) => recipient.phoneNumber.replace(/^\+/, ''));
}

/**
 * A worker beside `service` as a process of its own would be: its own ledger and providers over the same
 * store, polling quickly, and its own clock.
 */
function startOwnWorker(service: TestService, now?: () => Date) {
  const core = assembleCore(service.config, service.store, { logger: pino({ level: 'silent' }) });
  const worker = startWorker({
    ...core,
    settings: {
      ...workerSettingsOf(service.config, { apiInProcess: false }),
      pollIntervalMs: 50,
      resultPollIntervalMs: 50,
    },
    ...(now === undefined ? {} : { now }),
  });
  return {
    async stop() {
      await worker.stop();
      await core.ledger.close();
    },
  };
}

describe.each(openTestStores())('live money that is never paid out twice, on $name', (stores) => {
  let store: Store;
  let fakes: LiveFakes;
  let daraja: FakeDaraja;
  let africasTalking: FakeAfricasTalking;
  /** Between the service and Africa's Talking: loses the answers to sends for these recipients. */
  let front: AnswerDroppingFront;
  const answersLostFor = new Set<string>();
  let env: Record<string, string>;

  beforeAll(async () => {
    store = await stores.open();
    const port = await freePort();
    fakes = await startLiveFakes({
      publicBaseUrl: `http://127.0.0.1:${String(port)}`,
      webhookToken,
      ...fakeTiming,
    });
    ({ daraja, africasTalking } = fakes);
    front = await startAnswerDroppingFront(
      africasTalking.url,
      (request) =>
        request.path === '/version1/airtime/send' &&
        recipientsOf(request.body).some((phone) => answersLostFor.has(phone)),
    );
    env = {
      ...fakes.environment,
      AT_BASE_URL: front.url,
      PORT: String(port),
      RATE_LIMIT_PER_SECOND: '1000',
      RATE_LIMIT_BURST: '1000',
    };
  }, 60_000);
  afterAll(async () => {
    await front.close();
    await fakes.close();
    await stores.close(store);
  });

  const promptsTo = (payer: string) => daraja.stkPrompts.filter((prompt) => prompt.phone === payer);
  /** The sends Africa's Talking was asked for, taken or refused as duplicates. */
  const sendsTo = (recipient: string) =>
    africasTalking.requests.filter(
      (request) =>
        request.path === '/version1/airtime/send' && recipientsOf(request.body).includes(recipient),
    );
  /** The airtime Africa's Talking sent. */
  const deliveriesTo = (recipient: string) =>
    africasTalking.deliveries.filter((delivery) => delivery.phoneNumber === `+${recipient}`);
  const reversalsOf = (receipt: string) =>
    daraja.reversals.filter((reversal) => reversal.receipt === receipt);

  describe('with one worker', () => {
    let service: TestService;
    let logs: LogCapture;

    beforeAll(async () => {
      logs = captureLogs('warn');
      service = await startTestService(store, {
        worker: true,
        logger: logs.logger,
        workerSettings: {
          pollIntervalMs: 50,
          resultPollIntervalMs: 50,
          // With the one-second window: a leg still unsettled three seconds after its purchase waits for
          // an operator.
          transactionTimeoutSeconds: 2,
        },
        env: { ...env, PROVIDER_QUERY_AFTER_SECONDS: '1', RECONCILIATION_WINDOW_SECONDS: '1' },
      });
    }, 60_000);
    afterAll(async () => {
      await service.stop();
    });

    async function buy(payer: string, recipient: string, amount?: string) {
      const { account, token } = await service.createCaller();
      const envelope = await envelopeOf(
        await service.call('buy_airtime', { token, json: purchase(payer, recipient, amount) }),
      );
      expect(envelope.status.code).toBe('0000');
      const reference = (envelope.data['transaction'] as { reference: string }).reference;
      return { account, reference };
    }

    async function transactionOf(accountId: string, reference: string) {
      const transaction = await service.ledger.getTransaction(accountId, reference);
      if (transaction === undefined) throw new Error(`Expected transaction ${reference}, found none.`);
      return transaction;
    }

    const settled = (accountId: string, reference: string) =>
      eventually(
        `${reference} to be resolved`,
        async () => {
          const transaction = await transactionOf(accountId, reference);
          return transaction.state === 'requested' ? undefined : transaction;
        },
        waitMs,
      );

    async function legOf(reference: string, kind: TransactionLeg['kind']) {
      return (await service.ledger.legs(reference)).find((leg) => leg.kind === kind);
    }

    const inReview = (id: string) =>
      eventually(
        `${id} to wait for an operator`,
        async () => (await service.ledger.legsForReview(1_000)).find((leg) => leg.id === id),
        waitMs,
      );

    const metrics = async () => (await fetch(`${service.url}/metrics`)).text();

    /** The lines logged at error about transaction `reference` or one of its legs. */
    const errorsAbout = (reference: string) =>
      logs
        .records()
        .filter((record) => record['level'] === 50 && String(record['reference']).startsWith(reference));

    /** POSTs a prompt's callback to the service as Daraja would. */
    const stkCallback = (body: unknown) =>
      fetch(`${service.url}/providers/daraja/${webhookToken}/stk`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });

    it(
      'keeps a purchase whose carrier reports Success after Failed from completing, refunds its payer once, and puts the contradiction in review, in either order',
      async () => {
        const before = await metrics();
        // A: Success arrives while the reversal is under way; B: after the reversal's Result.
        const [a, b] = await Promise.all([
          buy('254712351001', '254711510005'),
          buy('254712351002', '254711520005'),
        ]);
        const successAfterFailed = async (reference: string) => {
          const delivery = await eventually(`${reference}'s airtime to fail at the carrier`, () =>
            africasTalking.deliveries.find(
              (sent) => sent.idempotencyKey === `${reference}-delivery` && sent.status === 'Failed',
            ),
          );
          const failed = await eventually(`${reference}'s Failed status callback`, () =>
            africasTalking.callbacks.find(
              (callback) =>
                (JSON.parse(callback.body) as { requestId: string }).requestId === delivery.requestId,
            ),
          );
          // Africa's Talking's word about the same requestId, now Success, as the carrier's retry would be.
          const body = { ...(JSON.parse(failed.body) as object), status: 'Success', description: 'Success' };
          const answer = await fetch(
            `${service.url}/providers/africastalking/${webhookToken}/airtime-status`,
            { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) },
          );
          expect(answer.status).toBe(200);
        };
        const receiptOf = async (reference: string) =>
          (await legOf(reference, 'payment'))?.providerReference ?? '';

        // A: the refund is claimed and the reversal taken; its Result comes 1.5 s later.
        const receiptA = await eventually(
          'A’s reversal to be taken',
          async () => {
            const receipt = await receiptOf(a.reference);
            return receipt !== '' && reversalsOf(receipt).length > 0 ? receipt : undefined;
          },
          waitMs,
        );
        await successAfterFailed(a.reference);
        const reviewA = await inReview(`${a.reference}-delivery`);
        expect(reversalsOf(receiptA)).toMatchObject([{ ended: false }]);

        // B: the purchase is cancelled as refunded before Success comes.
        expect(await settled(b.account.id, b.reference)).toMatchObject({ state: 'cancelled' });
        await successAfterFailed(b.reference);
        const reviewB = await inReview(`${b.reference}-delivery`);

        for (const [{ account, reference }, review] of [
          [a, reviewA],
          [b, reviewB],
        ] as const) {
          expect(await settled(account.id, reference)).toMatchObject({ state: 'cancelled' });
          expect(review).toMatchObject({ state: 'failed', reviewReason: 'contradiction' });
          expect(review.reviewEvidence.at(-1)).toMatchObject({
            event: 'result',
            outcome: 'succeeded',
            recorded: 'failed',
            provider: 'africastalking',
            source: expect.stringMatching(/^webhook /) as unknown,
          });
          expect(reversalsOf(await receiptOf(reference))).toMatchObject([{ ended: true, resultCode: 0 }]);
          expect(await legOf(reference, 'refund')).toMatchObject({ state: 'succeeded' });
          expect(errorsAbout(reference).length).toBeGreaterThan(0);
        }
        const after = await metrics();
        const contradictions = 'topup_reviews_opened_total{reason="contradiction"}';
        expect(sample(after, contradictions) - sample(before, contradictions)).toBe(2);
        expect(sample(after, 'topup_review_items')).toBeGreaterThanOrEqual(2);
        expect((await service.ledger.verify()).ok).toBe(true);
      },
      testTimeoutMs,
    );

    it(
      'delivers, then completes, a purchase whose payment an operator confirms after its acknowledgement was lost, never before the airtime is sent',
      async () => {
        const payer = '254712359006';
        const recipient = '254711530100';
        const { account, reference } = await buy(payer, recipient);
        expect(await inReview(`${reference}-payment`)).toMatchObject({ reviewReason: 'unsettled' });
        expect(sendsTo(recipient)).toHaveLength(0);
        // The operator finds the payment in the M-Pesa portal: the prompt was paid, under this receipt.
        const [prompt] = promptsTo(payer);
        const receipt = prompt?.receipt ?? '';
        expect(prompt).toMatchObject({ ended: true, resultCode: 0 });
        expect(receipt).toMatch(/^TK/);

        const settlement = await settleAsOperator(`${reference}-payment`, receipt);
        expect(settlement.transaction.state).toBe('requested');

        expect((await settled(account.id, reference)).state).toBe('completed');
        expect(sendsTo(recipient)).toHaveLength(1);
        expect(deliveriesTo(recipient)).toMatchObject([{ status: 'Success' }]);
        expect(await legOf(reference, 'payment')).toMatchObject({
          state: 'succeeded',
          providerReference: receipt,
          reviewedBy: 'amina',
        });
        expect(await legOf(reference, 'delivery')).toMatchObject({ state: 'succeeded' });
        expect(promptsTo(payer)).toHaveLength(1);
        expect((await service.ledger.verify()).ok).toBe(true);
      },
      testTimeoutMs,
    );

    /**
     * `topup legs resolve --leg ID --as succeeded --receipt R --by amina --json`: the CLI itself, on the
     * PostgreSQL schema of this store, with `environment`.
     */
    async function resolveByCli(id: string, receipt: string, environment: Record<string, string>) {
      const { rows } = await store.query<{ schema: string }>('SELECT current_schema() AS schema');
      const args = ['legs', 'resolve', '--leg', id, '--as', 'succeeded', '--receipt', receipt];
      return runCli([...args, '--by', 'amina', '--json'], {
        ...environment,
        DATABASE_URL: process.env.TEST_DATABASE_URL ?? '',
        DATABASE_SCHEMA: rows[0]?.schema ?? '',
        LOG_LEVEL: 'silent',
      });
    }

    /**
     * The settlement as an operator makes it: the CLI on PostgreSQL, with the service's configuration; on
     * the embedded store, which this process holds, the ledger function the CLI's command calls.
     */
    async function settleAsOperator(id: string, receipt: string) {
      if (stores.name === 'pglite') {
        const outcome = await service.ledger.settleReviewedLeg(id, { as: 'succeeded', by: 'amina', receipt });
        if (outcome.kind === 'not_found') throw new Error(`Expected ${id}'s transaction, found none.`);
        return outcome;
      }
      const cli = await resolveByCli(id, receipt, env);
      expect(cli.stderr).toBe('');
      expect(cli.code).toBe(0);
      return JSON.parse(cli.stdout) as { transaction: { state: string } };
    }

    it.runIf(stores.name === 'postgres')(
      'never completes a purchase unsent when its payment is settled from a CLI that does not say the mode: it refuses',
      async () => {
        const payer = '254712439006';
        const recipient = '254711630100';
        const { account, reference } = await buy(payer, recipient);
        await inReview(`${reference}-payment`);
        const receipt = promptsTo(payer)[0]?.receipt ?? '';
        // An operator's shell with the store's address alone, as `topup ledger verify` needs.
        const refused = await resolveByCli(`${reference}-payment`, receipt, {});
        expect(refused.code).toBe(1);
        expect(JSON.parse(refused.stderr)).toMatchObject({ error: { code: 'mode_required' } });
        expect(await transactionOf(account.id, reference)).toMatchObject({ state: 'requested' });
        expect(await inReview(`${reference}-payment`)).toMatchObject({ reviewReason: 'unsettled' });
        expect(sendsTo(recipient)).toHaveLength(0);
      },
      testTimeoutMs,
    );

    it.each([
      ['an amount of KES 1', '254712359007', '254711540100', '254712350107', '254711540107'],
      ['another phone number', '254712359008', '254711550100', '254712350108', '254711550108'],
    ])(
      'moves no money for a paid STK callback naming %s, and puts the payment in review',
      async (_what, payer, recipient, controlPayer, controlRecipient) => {
        const [contradicted, control] = await Promise.all([
          buy(payer, recipient, '500'),
          buy(controlPayer, controlRecipient, '500'),
        ]);
        const review = await inReview(`${contradicted.reference}-payment`);
        expect(review.reviewReason).toBe('mismatch');
        expect(review.reviewEvidence.at(-1)).toMatchObject({
          event: 'result',
          outcome: 'succeeded',
          source: expect.stringMatching(/^webhook /) as unknown,
          differences: expect.stringMatching(
            /^(amount 100 cents where 50000 were asked|phone 254700000009 where 254712359008 was asked)$/,
          ) as unknown,
        });
        // A purchase paid as asked, made at the same time, is delivered and completed meanwhile.
        expect((await settled(control.account.id, control.reference)).state).toBe('completed');
        expect(sendsTo(recipient)).toHaveLength(0);
        expect(await transactionOf(contradicted.account.id, contradicted.reference)).toMatchObject({
          state: 'requested',
        });
        expect(await service.ledger.balance(contradicted.account.id, 'airtime')).toMatchObject({
          postedMinor: 0n,
          pendingMinor: 0n,
        });
        expect(await legOf(contradicted.reference, 'delivery')).toBeUndefined();
        expect((await service.ledger.verify()).ok).toBe(true);
      },
      testTimeoutMs,
    );

    it.each([
      ['an undocumented result code (4999)', '254712369009'],
      ['“being processed” after the prompt ended', '254712369010'],
    ])(
      'keeps asking STK Query about a payment it answers with %s, and completes the purchase on the real result',
      async (_what, payer) => {
        const { account, reference } = await buy(payer, '254711560100');
        expect((await settled(account.id, reference)).state).toBe('completed');
        const prompts = promptsTo(payer);
        expect(prompts).toHaveLength(1);
        const queries = daraja.requests.filter(
          (request) =>
            request.path === '/mpesa/stkpushquery/v1/query' &&
            (request.body as { CheckoutRequestID?: unknown }).CheckoutRequestID ===
              prompts[0]?.checkoutRequestId,
        );
        expect(queries.length).toBeGreaterThanOrEqual(2);
      },
      testTimeoutMs,
    );

    it(
      'puts a paid STK callback for a payment already declined in review, and refunds the payer by a reversal once an operator confirms it',
      async () => {
        const payer = '254712379005';
        const recipient = '254711570100';
        // The prompt's own paid callback comes late (2.5 s); a decline by a final code comes first.
        const { account, reference } = await buy(payer, recipient);
        const [prompt] = promptsTo(payer);
        const declined = await stkCallback({
          Body: {
            stkCallback: {
              MerchantRequestID: prompt?.merchantRequestId,
              CheckoutRequestID: prompt?.checkoutRequestId,
              ResultCode: 1032,
              ResultDesc: 'Request cancelled by user',
            },
          },
        });
        expect(declined.status).toBe(200);
        expect(await settled(account.id, reference)).toMatchObject({ state: 'cancelled', code: '1032' });
        expect(promptsTo(payer)).toMatchObject([{ ended: false }]);

        const review = await inReview(`${reference}-payment`);
        expect(review.reviewReason).toBe('contradiction');
        const paid = review.reviewEvidence.at(-1);
        expect(paid).toMatchObject({ event: 'result', outcome: 'succeeded', recorded: 'failed' });
        const receipt = paid?.['providerCode'] ?? '';
        expect(receipt).toBe(promptsTo(payer)[0]?.receipt);
        expect(sendsTo(recipient)).toHaveLength(0);

        const settlement = await service.ledger.settleReviewedLeg(`${reference}-payment`, {
          as: 'succeeded',
          by: 'amina',
          receipt,
        });
        expect(settlement.kind).not.toBe('not_found');
        const refund = await eventually(
          `${reference}'s refund`,
          async () => {
            const leg = await legOf(reference, 'refund');
            return leg?.state === 'succeeded' ? leg : undefined;
          },
          waitMs,
        );
        expect(refund.provider).toBe('daraja');
        expect(reversalsOf(receipt)).toMatchObject([{ ended: true, resultCode: 0 }]);
        expect(await transactionOf(account.id, reference)).toMatchObject({ state: 'cancelled' });
        expect(sendsTo(recipient)).toHaveLength(0);
        expect((await service.ledger.verify()).ok).toBe(true);
      },
      testTimeoutMs,
    );

    it(
      'never sends again, and never refunds, a delivery whose answer was lost or came back a duplicate: it asks, then waits for an operator',
      async () => {
        const lost = { payer: '254712389003', recipient: '254711580100' };
        const duplicateKey = { payer: '254712399003', recipient: '254711590100' };
        const duplicateNumber = { payer: '254712409003', recipient: '254711600100' };
        answersLostFor.add(lost.recipient);
        // Each payer's callback is lost: STK Query finds the payment a second after the purchase.
        const [a, b, c] = await Promise.all(
          [lost, duplicateKey, duplicateNumber].map(({ payer, recipient }) => buy(payer, recipient)),
        );
        if (a === undefined || b === undefined || c === undefined)
          throw new Error('Expected three purchases.');
        // Airtime already sent to two of them within AT's windows: under the delivery's own key (as a
        // send whose answer was lost would have been), and of the same number and amount under no key.
        const sendFirst = async (recipient: string, key?: string) => {
          const answer = await fetch(`${africasTalking.url}/version1/airtime/send`, {
            method: 'POST',
            headers: {
              apiKey: env['AT_API_KEY'] ?? '',
              Accept: 'application/json',
              'Content-Type': 'application/x-www-form-urlencoded',
              ...(key === undefined ? {} : { 'Idempotency-Key': key }),
            },
            body: new URLSearchParams({
              username: env['AT_USERNAME'] ?? '',
              recipients: JSON.stringify([{ phoneNumber: `+${recipient}`, amount: 'KES 100' }]),
            }).toString(),
          });
          expect(await answer.json()).toMatchObject({ numSent: 1, responses: [{ status: 'Sent' }] });
        };
        await sendFirst(duplicateKey.recipient, `${b.reference}-delivery`);
        await sendFirst(duplicateNumber.recipient);

        const cases = [
          { ...lost, ...a, sends: 1 },
          { ...duplicateKey, ...b, sends: 2 },
          { ...duplicateNumber, ...c, sends: 2 },
        ];
        for (const { reference, account, recipient, sends } of cases) {
          const review = await inReview(`${reference}-delivery`);
          expect(review).toMatchObject({ state: 'unknown', reviewReason: 'unsettled' });
          expect(sendsTo(recipient)).toHaveLength(sends);
          // The airtime arrived, once; the payer is not refunded, and the purchase waits.
          await eventually(`${recipient}'s airtime to arrive`, () =>
            deliveriesTo(recipient).length === 1 && deliveriesTo(recipient)[0]?.status === 'Success'
              ? true
              : undefined,
          );
          expect(await legOf(reference, 'refund')).toBeUndefined();
          expect(await transactionOf(account.id, reference)).toMatchObject({ state: 'requested' });
        }
        expect(front.dropped.map((request) => recipientsOf(request.body))).toEqual([[lost.recipient]]);
        // Past both of AT's windows, where a repeat would be a new send, nothing more was sent.
        await new Promise((resolve) => setTimeout(resolve, fakeTiming.idempotencyWindowMs));
        for (const { recipient, sends } of cases) {
          expect(sendsTo(recipient)).toHaveLength(sends);
          expect(deliveriesTo(recipient)).toHaveLength(1);
        }
        expect((await service.ledger.verify()).ok).toBe(true);
      },
      testTimeoutMs,
    );
  });

  describe('after a worker died between claiming a delivery and sending it', () => {
    let service: TestService;

    beforeAll(async () => {
      // No worker yet: the test plays the one that died, then starts another.
      service = await startTestService(store, { env: { ...env, PROVIDER_QUERY_AFTER_SECONDS: '1' } });
    }, 60_000);
    afterAll(async () => {
      await service.stop();
    });

    it(
      'asks the carrier about the claimed delivery, and sends it, once, when the carrier never had it',
      async () => {
        const payer = '254712420100';
        const recipient = '254711620100';
        const { account, token } = await service.createCaller();
        const envelope = await envelopeOf(
          await service.call('buy_airtime', { token, json: purchase(payer, recipient) }),
        );
        const { reference } = envelope.data['transaction'] as { reference: string };
        const receipt = await eventually('the payer to pay', () => promptsTo(payer)[0]?.receipt, waitMs);
        // What the dead worker's loops wrote: the paid callback applied, then the delivery claimed. Its process
        // ended there, before the call to Africa's Talking.
        const paid = await service.ledger.applyLegEvent(reference, 'payment', {
          kind: 'result',
          outcome: 'succeeded',
          provider: 'daraja',
          providerCode: receipt,
          reason: '',
          source: 'webhook',
        });
        expect(paid?.action).toBe('end leg');
        const claim = await service.ledger.applyLegEvent(reference, 'delivery', {
          kind: 'call',
          provider: 'africastalking',
          seenCalls: 0,
        });
        expect(claim?.action).toBe('claim');

        const worker = startOwnWorker(service);
        try {
          const transaction = await eventually(
            `${reference} to be delivered`,
            async () => {
              const found = await service.ledger.getTransaction(account.id, reference);
              return found?.state === 'requested' ? undefined : found;
            },
            waitMs,
          );
          expect(transaction.state).toBe('completed');
          expect(sendsTo(recipient)).toHaveLength(1);
          expect(deliveriesTo(recipient)).toMatchObject([{ status: 'Success' }]);
          expect((await service.ledger.verify()).ok).toBe(true);
        } finally {
          await worker.stop();
        }
      },
      testTimeoutMs,
    );
  });

  describe('with two workers at once', () => {
    let service: TestService;
    const workers: { stop: () => Promise<void> }[] = [];

    beforeAll(async () => {
      // Asked about only after a minute, so nothing but the interrupted submissions' loop touches them.
      service = await startTestService(store, { env: { ...env, PROVIDER_QUERY_AFTER_SECONDS: '60' } });
      for (let index = 0; index < 2; index += 1) {
        // Each with its clock ten seconds on, so what was just recorded counts as interrupted (older than
        // the provider timeout and its margin).
        workers.push(startOwnWorker(service, () => new Date(Date.now() + 10_000)));
      }
    }, 60_000);
    afterAll(async () => {
      for (const worker of workers) await worker.stop();
      await service.stop();
    });

    it(
      'makes each call once when two workers resume the same interrupted submissions and carry the same purchases on',
      async () => {
        const { account } = await service.createCaller({ float: 10_000_000n });
        // Recipients ending 0005: the carrier fails, so each purchase is refunded, once.
        const purchases = ['1', '2', '3'].map((n) => ({
          payer: `25471241${n}100`,
          recipient: `2547116${n}0005`,
        }));
        const floats = ['1', '2', '3'].map((n) => `41${n}400`);
        // Recorded as the server records them, and never submitted: the server died before the call.
        const references: string[] = [];
        for (const { payer, recipient } of purchases) {
          const parsed = parseBuyAirtime(purchase(payer, recipient));
          if (!parsed.ok) throw new Error(parsed.errors.join(', '));
          const made = await service.ledger.requestAirtime({ accountId: account.id, request: parsed.value });
          if (made.kind !== 'created') throw new Error(`Expected a purchase, received ${made.kind}.`);
          references.push(made.transaction.reference);
        }
        const floatReferences: string[] = [];
        for (const storeNumber of floats) {
          const parsed = parseSendAgentFloat({
            mobile: '254712345678',
            amount: '1500',
            network: 'MoneyNetA',
            agent_number: '300300',
            store_number: storeNumber,
          });
          if (!parsed.ok) throw new Error(parsed.errors.join(', '));
          const made = await service.ledger.requestAgentFloat({
            accountId: account.id,
            request: parsed.value,
          });
          if (made.kind !== 'created') throw new Error(`Expected a float, received ${made.kind}.`);
          floatReferences.push(made.transaction.reference);
        }

        for (const [index, reference] of references.entries()) {
          const { payer, recipient } = purchases[index] ?? { payer: '', recipient: '' };
          const transaction = await eventually(
            `${reference} to be refunded`,
            async () => {
              const found = await service.ledger.getTransaction(account.id, reference);
              return found?.state === 'cancelled' ? found : undefined;
            },
            waitMs,
          );
          expect(transaction.cancelReason).toMatch(/refund/i);
          expect(promptsTo(payer)).toHaveLength(1);
          expect(sendsTo(recipient)).toHaveLength(1);
          expect(deliveriesTo(recipient)).toHaveLength(1);
          const receipt = promptsTo(payer)[0]?.receipt ?? '';
          expect(reversalsOf(receipt)).toHaveLength(1);
        }
        for (const reference of floatReferences) {
          await eventually(
            `${reference} to complete`,
            async () =>
              (await service.ledger.getTransaction(account.id, reference))?.state === 'completed' ||
              undefined,
            waitMs,
          );
        }
        for (const storeNumber of floats) {
          expect(daraja.b2bPayments.filter((payment) => payment.partyB === storeNumber)).toHaveLength(1);
        }
        expect((await service.ledger.verify()).ok).toBe(true);
      },
      testTimeoutMs,
    );
  });
});
