// The chaos promise in live mode: two server processes and two worker processes share one PostgreSQL
// schema and carry agent float (M-Pesa B2B) and airtime purchases (payment by STK push, delivery by
// Africa's Talking keyed by its leg, refund by reversal) against the fake Daraja and the fake Africa's
// Talking over real HTTP. While a retrying caller sends a few hundred keyed requests spread over both
// servers, each server and each worker is killed once with SIGKILL and started again on the same settings.
// Providers call back through a front that, like a production load balancer, reaches whichever server is
// up; a callback lost anyway (its server died mid-request) is recovered by queries.
// Afterwards every key was answered and holds at most one transaction; every transaction is resolved or,
// where only a person can settle it (a prompt or B2B payment whose acknowledgement died with its server),
// waits for an operator's review; every purchase whose payer paid was delivered once or refunded once by a
// reversal, never both; no payer who declined was delivered to; `topup ledger verify` is clean; and the
// float balance is exactly the funding minus the floats that completed, with those under review reserved.

import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { formatMinor, NOT_DELIVERED_REFUNDED } from '@topup/ledger';
import { DARAJA_DECLINED } from '@topup/providers';
import { startLiveFakes, type LiveFakes } from '@topup/providers/fakes';
import { describe, expect, it } from 'vitest';
import { runCli, startService, startWorkerProcess } from '../testing/child-process.js';
import { startFailoverProxy, type FailoverProxy } from '../testing/failover-proxy.js';
import type { RunningChild } from '../testing/child-process.js';
import { freePort } from '../testing/free-port.js';
import { postUntilAnswered } from '../testing/keyed-retries.js';
import { openPostgresSchema, postgresTestUrl } from '../testing/postgres-schema.js';
import type { PostgresSchema } from '../testing/postgres-schema.js';

const databaseUrl = postgresTestUrl();

const REQUESTS = 360;
/** Requests go in bursts, so a kill finds several of them in flight; the load lasts through all four kills. */
const BURST = 12;
const BURST_EVERY_MS = 480;
/**
 * Each process is killed right after a burst takes the count sent to this many: a server, a worker, a
 * server, a worker.
 */
const KILL_AFTER_SENT = [48, 132, 216, 300] as const;
const FLOAT_FUNDING_SHILLINGS = 1_000_000;
const AIRTIME_FUNDING_SHILLINGS = 50_000;
/**
 * How long every transaction may take to leave `requested` once the load is answered. The worker needs
 * TRANSACTION_TIMEOUT plus RECONCILIATION_WINDOW_SECONDS (65 s) to hand a silent leg to review; under the
 * whole suite on two cores (Chromium and the console's end-to-end suite included) its loops run late, so
 * the bound is generous. The wait ends as soon as everything has settled.
 */
const SETTLE_WITHIN_MS = 120_000;

const webhookToken = 'wh_live_chaos_0123456789abcdef01234';

/** Every process's environment: live mode on the fakes, through the front before both servers. */
function liveEnvironment(db: PostgresSchema, fakes: LiveFakes): Record<string, string> {
  return {
    ...db.env,
    ...fakes.environment,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    PROVIDER_QUERY_AFTER_SECONDS: '1',
    // The default 10 s: the fakes answer in this test's process, and under the whole suite on two cores a
    // 3 s bound timed out dozens of prompts and B2B payments the fakes had taken. A timed-out call's
    // acknowledgement never arrives, so nothing can ask about it and it rightly waits for an operator, which
    // is what this test counts; the bound that matters here is the load, not the provider.
    PROVIDER_TIMEOUT_MS: '10000',
    // At least twice (PROVIDER_TIMEOUT_MS + STORE_DEADLINE_MS), as the configuration requires, and past
    // two turns of the 15 s after which a worker resumes a submission its server never made: when the
    // worker that took such a submission is itself killed, the other takes it 15 s later, and a shorter
    // timeout cancelled it first (never sent, so no money moved, but not what its numbers script).
    TRANSACTION_TIMEOUT: '60',
    // What no provider can settle waits for an operator within the test's time.
    RECONCILIATION_WINDOW_SECONDS: '5',
    RATE_LIMIT_PER_SECOND: '1000000',
    RATE_LIMIT_BURST: '1000000',
  };
}

/**
 * What request `index` asks for and how the fakes end it, by the last four digits of its numbers:
 * payer 1032 declines the prompt, recipient 0005 fails delivery (refunded), 9003 loses the callback,
 * 9001 sends it twice; store 0011 declines the float.
 */
type Scenario =
  | { readonly kind: 'float'; readonly store: string; readonly expected: 'completed' | 'declined' }
  | {
      readonly kind: 'airtime';
      readonly payerEnding: string;
      readonly recipientEnding: string;
      readonly expected: 'delivered' | 'declined' | 'refunded';
    };

const floatScenarios: readonly Scenario[] = [
  { kind: 'float', store: '400400', expected: 'completed' },
  { kind: 'float', store: '400011', expected: 'declined' },
  { kind: 'float', store: '409003', expected: 'completed' },
  { kind: 'float', store: '409001', expected: 'completed' },
  { kind: 'float', store: '400400', expected: 'completed' },
];
const airtimeScenarios: readonly Scenario[] = [
  { kind: 'airtime', payerEnding: '0100', recipientEnding: '0200', expected: 'delivered' },
  { kind: 'airtime', payerEnding: '1032', recipientEnding: '0200', expected: 'declined' },
  { kind: 'airtime', payerEnding: '0100', recipientEnding: '0005', expected: 'refunded' },
  { kind: 'airtime', payerEnding: '9003', recipientEnding: '0200', expected: 'delivered' },
  { kind: 'airtime', payerEnding: '0100', recipientEnding: '9003', expected: 'delivered' },
  { kind: 'airtime', payerEnding: '9001', recipientEnding: '9001', expected: 'delivered' },
  { kind: 'airtime', payerEnding: '0100', recipientEnding: '0200', expected: 'delivered' },
  { kind: 'airtime', payerEnding: '9001', recipientEnding: '0005', expected: 'refunded' },
];

function scenarioOf(index: number): Scenario {
  const scenarios = index % 3 === 0 ? floatScenarios : airtimeScenarios;
  return (
    scenarios[Math.floor(index / 3) % scenarios.length] ?? {
      kind: 'float',
      store: '400400',
      expected: 'completed',
    }
  );
}

function bodyOf(index: number, scenario: Scenario): Record<string, string> {
  const serial = String(index).padStart(3, '0');
  if (scenario.kind === 'float') {
    return {
      mobile: '254712345678',
      amount: String(100 + (index % 50)),
      network: 'MoneyNetA',
      agent_number: '300300',
      store_number: scenario.store,
    };
  }
  return {
    mobile: `25471${serial}${scenario.recipientEnding}`,
    amount: String(10 + (index % 90)),
    network: 'CarrierA',
    payment_network: 'MoneyNetA',
    payment_mobile: `25472${serial}${scenario.payerEnding}`,
  };
}

interface Outcome {
  readonly index: number;
  readonly key: string;
  readonly scenario: Scenario;
  readonly body: Record<string, string>;
  readonly server: number;
  readonly code: string;
  readonly attempts: number;
  readonly reference: string | undefined;
}

/** Stops a child gracefully, and with SIGKILL when it does not exit within a few seconds. */
async function stopChild(running: RunningChild | undefined): Promise<void> {
  if (running === undefined || running.child.exitCode !== null || running.child.signalCode !== null) return;
  const exited = once(running.child, 'exit');
  running.child.kill('SIGTERM');
  const timer = setTimeout(() => running.child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

async function kill(running: RunningChild): Promise<void> {
  const exited = once(running.child, 'exit');
  running.child.kill('SIGKILL');
  await exited;
}

interface LegRow {
  readonly reference: string;
  readonly kind: string;
  readonly state: string;
  readonly provider_reference: string;
  readonly review_since: Date | null;
  readonly review_reason: string;
}

interface TransactionRow {
  readonly reference: string;
  readonly type: string;
  readonly state: string;
  readonly code: string;
  readonly cancel_reason: string;
  readonly amount_minor: string;
}

describe.skipIf(databaseUrl === undefined)(
  'live mode with two servers and two workers killed under load, on PostgreSQL',
  () => {
    it('settles every keyed request once: each purchase delivered or refunded exactly once, the ledger clean, the float exact', async () => {
      const db = await openPostgresSchema(databaseUrl ?? '');
      const ports = [await freePort(), await freePort()] as const;
      let fakes: LiveFakes | undefined;
      let front: FailoverProxy | undefined;
      const servers: (RunningChild | undefined)[] = [undefined, undefined];
      const workers: (RunningChild | undefined)[] = [undefined, undefined];
      try {
        front = await startFailoverProxy(ports);
        fakes = await startLiveFakes({ publicBaseUrl: front.url, webhookToken, delayMs: 80 });
        const { daraja, africasTalking } = fakes;
        const env = liveEnvironment(db, fakes);
        const serverEnv = (slot: number) => ({ ...env, PORT: String(ports[slot] ?? 0) });

        const created = await runCli(
          ['account', 'create', '--name', 'Chaos Live Ltd', '--mode', 'live', '--json'],
          env,
        );
        expect(created.code, created.stderr).toBe(0);
        const { account, token } = JSON.parse(created.stdout) as { account: string; token: string };
        const fund = (channel: string, shillings: number) =>
          runCli(
            [
              'channel',
              'fund',
              '--account',
              account,
              '--channel',
              channel,
              '--amount',
              String(shillings),
              '--json',
            ],
            env,
          );
        const started = await Promise.all([
          fund('float', FLOAT_FUNDING_SHILLINGS),
          fund('airtime', AIRTIME_FUNDING_SHILLINGS),
          startService('src/serve.ts', serverEnv(0)),
          startService('src/serve.ts', serverEnv(1)),
          startWorkerProcess(env),
          startWorkerProcess(env),
        ]);
        const [floatFunded, airtimeFunded, server1, server2, worker1, worker2] = started;
        expect([floatFunded.code, airtimeFunded.code]).toEqual([0, 0]);
        servers.splice(0, 2, server1, server2);
        workers.splice(0, 2, worker1, worker2);
        const baseUrls = [server1.url, server2.url];

        // The load: bursts of keyed requests, alternating between the servers.
        let sent = 0;
        let answered = 0;
        const pending: Promise<Outcome>[] = [];
        const sending = (async () => {
          for (let index = 0; index < REQUESTS; index += 1) {
            const scenario = scenarioOf(index);
            const body = bodyOf(index, scenario);
            const key = `chaos-${String(index)}`;
            const server = index % 2;
            pending.push(
              postUntilAnswered({
                url: `${baseUrls[server] ?? ''}/api/${scenario.kind === 'float' ? 'send_agent_float' : 'buy_airtime'}`,
                token,
                idempotencyKey: key,
                body,
                deadlineMs: 60_000,
              }).then((answer) => {
                answered += 1;
                const transaction = answer.data['transaction'] as { reference?: string } | undefined;
                return {
                  index,
                  key,
                  scenario,
                  body,
                  server,
                  code: answer.code,
                  attempts: answer.attempts,
                  reference: transaction?.reference,
                };
              }),
            );
            sent += 1;
            if (sent % BURST === 0) await sleep(BURST_EVERY_MS);
          }
        })();

        // The chaos: each process killed once, staggered, and started again on its own settings.
        const inFlightAtKills: number[] = [];
        const victims = [
          { list: servers, slot: 1, restart: () => startService('src/serve.ts', serverEnv(1)) },
          { list: workers, slot: 0, restart: () => startWorkerProcess(env) },
          { list: servers, slot: 0, restart: () => startService('src/serve.ts', serverEnv(0)) },
          { list: workers, slot: 1, restart: () => startWorkerProcess(env) },
        ];
        for (const [turn, victim] of victims.entries()) {
          const after = KILL_AFTER_SENT[turn] ?? REQUESTS;
          while (sent < after) await sleep(5);
          const running = victim.list[victim.slot];
          if (running === undefined) throw new Error('Expected a running process to kill');
          await kill(running);
          inFlightAtKills.push(sent - answered);
          victim.list[victim.slot] = await victim.restart();
        }
        await sending;
        const outcomes = await Promise.all(pending);

        // The kills came during the load, with requests in flight.
        expect(inFlightAtKills).toHaveLength(4);
        expect(inFlightAtKills.reduce((sum, count) => sum + count, 0)).toBeGreaterThan(0);

        // Every key was answered: 0000, or 9000 when M-Pesa did not take it (nothing was sent).
        expect(outcomes).toHaveLength(REQUESTS);
        expect(outcomes.filter((outcome) => !['0000', '9000'].includes(outcome.code))).toEqual([]);
        const accepted = outcomes.filter((outcome) => outcome.code === '0000');
        expect(accepted.length).toBeGreaterThan(REQUESTS * 0.8);
        for (const outcome of accepted) expect(outcome.reference).toMatch(/^TX[A-Z0-9]{12}$/);

        // The same key sent to the other server replays the first answer instead of making another transaction.
        const replays = await Promise.all(
          accepted
            .filter((outcome) => outcome.index % 10 === 0)
            .map(async (outcome) => {
              const answer = await postUntilAnswered({
                url: `${baseUrls[1 - outcome.server] ?? ''}/api/${outcome.scenario.kind === 'float' ? 'send_agent_float' : 'buy_airtime'}`,
                token,
                idempotencyKey: outcome.key,
                body: outcome.body,
                deadlineMs: 30_000,
              });
              const transaction = answer.data['transaction'] as { reference?: string } | undefined;
              return { key: outcome.key, code: answer.code, reference: transaction?.reference };
            }),
        );
        expect(replays).toEqual(
          accepted
            .filter((outcome) => outcome.index % 10 === 0)
            .map((outcome) => ({ key: outcome.key, code: '0000', reference: outcome.reference })),
        );

        // Bounded: every transaction leaves `requested`, lost callbacks recovered by queries. The wait
        // ends early once all that is left waits for an operator, since the service does nothing more.
        const settleBy = Date.now() + SETTLE_WITHIN_MS;
        let stillRequested: string[] = [];
        let reviewing = new Set<string>();
        for (;;) {
          const { rows } = await db.store.query<{ reference: string; for_review: boolean }>(
            `SELECT t.reference, EXISTS (SELECT 1 FROM transaction_legs l WHERE l.reference = t.reference
               AND l.review_since IS NOT NULL AND l.reviewed_at IS NULL) AS for_review
             FROM transactions t WHERE t.account_id = $1 AND t.state = 'requested' ORDER BY t.reference`,
            [account],
          );
          stillRequested = rows.filter((row) => !row.for_review).map((row) => row.reference);
          reviewing = new Set(rows.filter((row) => row.for_review).map((row) => row.reference));
          if (stillRequested.length === 0 || Date.now() > settleBy) break;
          await sleep(250);
        }
        const { rows: transactions } = await db.store.query<TransactionRow>(
          `SELECT reference, type, state, code, cancel_reason, amount_minor::text AS amount_minor
           FROM transactions WHERE account_id = $1`,
          [account],
        );
        const { rows: legRows } = await db.store.query<LegRow>(
          `SELECT l.reference, l.kind, l.state, l.provider_reference, l.review_since, l.review_reason
           FROM transaction_legs l JOIN transactions t ON t.reference = l.reference WHERE t.account_id = $1`,
          [account],
        );
        const { rows: keys } = await db.store.query<{ key: string; reference: string }>(
          'SELECT key, reference FROM idempotency_keys WHERE account_id = $1',
          [account],
        );
        const legsOf = new Map<string, Map<string, LegRow>>();
        for (const leg of legRows) {
          const legs = legsOf.get(leg.reference) ?? new Map<string, LegRow>();
          legs.set(leg.kind, leg);
          legsOf.set(leg.reference, legs);
        }
        // What the fakes saw, by transaction: STK prompts carry the reference's last 12 characters, B2B
        // payments "Float <reference>", deliveries the Idempotency-Key `<reference>-delivery`.
        const promptsFor = new Map<string, number>();
        for (const request of daraja.requests) {
          if (request.path !== '/mpesa/stkpush/v1/processrequest') continue;
          const tail = String((request.body as { AccountReference?: unknown }).AccountReference);
          promptsFor.set(tail, (promptsFor.get(tail) ?? 0) + 1);
        }
        const b2bFor = new Map<string, number>();
        for (const request of daraja.requests) {
          if (request.path !== '/mpesa/b2b/v1/paymentrequest') continue;
          const remarks = String((request.body as { Remarks?: unknown }).Remarks);
          b2bFor.set(remarks, (b2bFor.get(remarks) ?? 0) + 1);
        }
        // How Daraja's callbacks about each submission were answered (0: nothing listened), by the ids
        // the service recorded for it: a prompt's CheckoutRequestID, a B2B's ConversationID.
        const { rows: submissionIds } = await db.store.query<{ reference: string; provider_id: string }>(
          "SELECT reference, provider_id FROM provider_submission_ids WHERE provider = 'daraja' AND purpose = 'submission'",
        );
        const callbackStatuses = new Map<string, number[]>();
        for (const callback of daraja.callbacks) {
          const body = callback.body as {
            Body?: { stkCallback?: { CheckoutRequestID?: string } };
            Result?: { ConversationID?: string };
          };
          const id = body.Body?.stkCallback?.CheckoutRequestID ?? body.Result?.ConversationID ?? '';
          callbackStatuses.set(id, [...(callbackStatuses.get(id) ?? []), callback.status]);
        }
        const darajaCallbacksFor = (reference: string) =>
          submissionIds
            .filter((row) => row.reference === reference || row.reference === `${reference}-payment`)
            .map((row) => `[${(callbackStatuses.get(row.provider_id) ?? []).join(', ')}]`)
            .join(' ');
        const summarize = (reference: string) => {
          const transaction = transactions.find((row) => row.reference === reference);
          const legs = [...(legsOf.get(reference)?.values() ?? [])].map(
            (leg) =>
              `${leg.kind}:${leg.state}${leg.provider_reference === '' ? '' : `(${leg.provider_reference})`}${leg.review_since === null ? '' : `:review(${leg.review_reason})`}`,
          );
          const outcome = outcomes.find((candidate) => candidate.reference === reference);
          const atFakes =
            transaction?.type === 'Agent Float'
              ? `B2B payments ${String(b2bFor.get(`Float ${reference}`) ?? 0)}`
              : `STK prompts ${String(promptsFor.get(reference.slice(-12)) ?? 0)}`;
          const callbacks = `Daraja callbacks answered ${darajaCallbacksFor(reference) || 'none'}`;
          return (
            `${reference} ${transaction?.type ?? '?'} ${transaction?.state ?? '?'} code=${transaction?.code ?? ''} ` +
            `[${legs.join(', ')}] ${atFakes}, ${callbacks}; key ${outcome?.key ?? '(none)'} answered ${outcome?.code ?? '-'} ` +
            `after ${String(outcome?.attempts ?? 0)} attempts: ${JSON.stringify(outcome?.body ?? {})}`
          );
        };
        expect.soft(stillRequested.map(summarize), 'transactions requested and not for review').toEqual([]);
        // Only what no provider can settle waits for a person: a prompt or a B2B payment whose
        // acknowledgement died with its server (it may have reached the payer or the agent, so it is
        // neither sent again nor cancelled), or a refund with no receipt to reverse; few of them, and never
        // with money moved twice.
        expect
          .soft([...reviewing].length, [...reviewing].map(summarize).join('\n'))
          .toBeLessThanOrEqual(REQUESTS * 0.05);

        // One key, one transaction: keys name distinct transactions; each 0000 is the key's transaction.
        const keyOf = new Map(keys.map((row) => [row.key, row.reference]));
        expect.soft(new Set(keys.map((row) => row.reference)).size).toBe(keys.length);
        for (const outcome of accepted)
          expect.soft(keyOf.get(outcome.key), outcome.key).toBe(outcome.reference);
        const stateOf = new Map(transactions.map((row) => [row.reference, row]));
        const keyed = new Set(keys.map((row) => row.reference));

        const deliveries = africasTalking.deliveries;
        expect.soft(deliveries.filter((delivery) => delivery.idempotencyKey === undefined)).toEqual([]);
        const deliveriesByKey = new Map<string, (typeof deliveries)[number][]>();
        for (const delivery of deliveries) {
          const list = deliveriesByKey.get(delivery.idempotencyKey ?? '') ?? [];
          list.push(delivery);
          deliveriesByKey.set(delivery.idempotencyKey ?? '', list);
        }
        // The carrier delivered each delivery leg at most once.
        expect
          .soft([...deliveriesByKey].filter(([, list]) => list.length > 1).map(([key]) => key))
          .toEqual([]);
        const reversals = daraja.reversals;
        const reversedOk = new Map<string, number>();
        for (const reversal of reversals) {
          if (reversal.ended && String(reversal.resultCode) === '0') {
            reversedOk.set(reversal.receipt, (reversedOk.get(reversal.receipt) ?? 0) + 1);
          }
        }
        // Each M-Pesa receipt was reversed at most once, and asked to be at most once: a refund is never sent again.
        expect.soft([...reversedOk].filter(([, count]) => count > 1)).toEqual([]);
        const reversalRequests = new Map<string, number>();
        for (const request of daraja.requests) {
          if (request.path !== '/mpesa/reversal/v1/request') continue;
          const receipt = String((request.body as { TransactionID?: unknown }).TransactionID);
          reversalRequests.set(receipt, (reversalRequests.get(receipt) ?? 0) + 1);
        }
        expect.soft([...reversalRequests].filter(([, count]) => count > 1)).toEqual([]);

        // A transaction no key holds came to nothing: cancelled, and never sent to M-Pesa.
        for (const transaction of transactions) {
          if (keyed.has(transaction.reference)) continue;
          expect.soft(transaction.state, summarize(transaction.reference)).toBe('cancelled');
          expect.soft(promptsFor.get(transaction.reference.slice(-12)) ?? 0).toBe(0);
          expect.soft(b2bFor.get(`Float ${transaction.reference}`) ?? 0).toBe(0);
        }

        const problems: string[] = [];
        const receiptsPaid = new Set<string>();
        let completedFloatMinor = 0n;
        // A float waiting for review keeps its reservation until an operator settles it.
        let reviewingFloatMinor = 0n;
        for (const transaction of transactions) {
          const { reference } = transaction;
          const legs = legsOf.get(reference) ?? new Map<string, LegRow>();
          if (transaction.type === 'Agent Float') {
            const b2b = b2bFor.get(`Float ${reference}`) ?? 0;
            if (b2b > 1) problems.push(`float paid by ${String(b2b)} B2B payments: ${summarize(reference)}`);
            if (transaction.state === 'completed') completedFloatMinor += BigInt(transaction.amount_minor);
            if (transaction.state === 'requested' && reviewing.has(reference))
              reviewingFloatMinor += BigInt(transaction.amount_minor);
            continue;
          }
          const prompts = promptsFor.get(reference.slice(-12)) ?? 0;
          if (prompts > 1) problems.push(`payer prompted ${String(prompts)} times: ${summarize(reference)}`);
          const payment = legs.get('payment');
          const delivery = legs.get('delivery');
          const refund = legs.get('refund');
          const sentToCarrier = deliveriesByKey.get(`${reference}-delivery`) ?? [];
          const delivered = sentToCarrier.some((held) => held.status === 'Success');
          const receipt = payment?.provider_reference ?? '';
          const reversed = receipt === '' ? 0 : (reversedOk.get(receipt) ?? 0);
          if (payment?.state !== 'succeeded') {
            // Not paid: never delivered, never refunded.
            if (sentToCarrier.length > 0) problems.push(`delivered without payment: ${summarize(reference)}`);
            if (refund !== undefined) problems.push(`refunded without payment: ${summarize(reference)}`);
            continue;
          }
          if (receipt !== '') {
            if (receiptsPaid.has(receipt))
              problems.push(`receipt ${receipt} paid twice: ${summarize(reference)}`);
            receiptsPaid.add(receipt);
          }
          if (transaction.state === 'completed') {
            if (delivery?.state !== 'succeeded' || !delivered)
              problems.push(`completed without a delivery: ${summarize(reference)}`);
            if (reversed > 0) problems.push(`delivered and reversed: ${summarize(reference)}`);
          } else if (transaction.state === 'cancelled') {
            if (refund?.state !== 'succeeded' || transaction.cancel_reason !== NOT_DELIVERED_REFUNDED)
              problems.push(`paid and cancelled without a refund: ${summarize(reference)}`);
            if (reversed !== 1)
              problems.push(`refunded by ${String(reversed)} reversals: ${summarize(reference)}`);
            if (delivered) problems.push(`delivered and refunded: ${summarize(reference)}`);
          }
        }
        // Each accepted request ended as its numbers script it.
        for (const outcome of accepted) {
          const transaction = stateOf.get(outcome.reference ?? '');
          const reference = outcome.reference ?? '';
          if (reviewing.has(reference)) continue;
          const { scenario } = outcome;
          const ended =
            transaction === undefined
              ? 'missing'
              : transaction.state === 'requested'
                ? 'still requested'
                : scenario.kind === 'float'
                  ? transaction.state === 'completed'
                    ? 'completed'
                    : // M-Pesa's reason (11), or none when only Transaction Status told it; never its success code.
                      transaction.cancel_reason === DARAJA_DECLINED && transaction.code !== '0'
                      ? 'declined'
                      : `cancelled (${transaction.cancel_reason}, code ${transaction.code})`
                  : transaction.state === 'completed'
                    ? 'delivered'
                    : transaction.code === '1032'
                      ? 'declined'
                      : transaction.cancel_reason === NOT_DELIVERED_REFUNDED
                        ? 'refunded'
                        : `cancelled (${transaction.cancel_reason})`;
          if (ended !== scenario.expected)
            problems.push(`expected ${scenario.expected}, ended ${ended}: ${summarize(reference)}`);
          if (scenario.kind === 'airtime' && scenario.expected === 'declined') {
            const sends = africasTalking.requests.filter(
              (request) => request.headers.idempotencyKey === `${reference}-delivery`,
            );
            if (sends.length > 0) problems.push(`declined payer delivered to: ${summarize(reference)}`);
          }
        }
        expect.soft(problems).toEqual([]);

        const verified = await runCli(['ledger', 'verify', '--json'], env);
        expect.soft(verified.stderr).toBe('');
        expect.soft(JSON.parse(verified.stdout)).toMatchObject({ ok: true, breaches: [] });
        expect.soft(verified.code).toBe(0);

        const balances = await runCli(['channel', 'balance', '--account', account, '--json'], env);
        const [float, airtime] = JSON.parse(balances.stdout) as {
          channel: string;
          available: string;
          pending: string;
        }[];
        const floatMinor = BigInt(FLOAT_FUNDING_SHILLINGS) * 100n - completedFloatMinor - reviewingFloatMinor;
        expect.soft(float).toEqual({
          channel: 'float',
          available: formatMinor(floatMinor),
          pending: formatMinor(reviewingFloatMinor),
        });
        // Airtime is paid by the payer and paid out to the carrier: the caller's channel is untouched.
        expect.soft(airtime).toEqual({
          channel: 'airtime',
          available: `${String(AIRTIME_FUNDING_SHILLINGS)}.00`,
          pending: '0.00',
        });
      } finally {
        await Promise.all([...servers, ...workers].map((running) => stopChild(running)));
        await fakes?.close();
        await front?.close();
        await db.drop();
      }
    }, 300_000);
  },
);
