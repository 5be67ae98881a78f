// Isolation between callers, generated over every API function: an attacker with a valid token sends
// requests whose fields are filled with the victim's identifiers (references, endpoint ids, account id,
// idempotency key), its own, or junk, in JSON or XML. The same holds through the console: a caller
// session calls every API function, operator function and export naming the victim's account, and a
// support session tries every operator change. No answer may carry anything of the victim's that the
// attacker did not send itself, and after every request everything in the database that concerns the
// victim is exactly as it was: in every table, the victim's rows and anyone's rows that point at the
// victim's endpoint, transactions or deliveries, and the money on the victim's ledger accounts.

import type { Queryable, Store } from '@topup/ledger';
import { encodeDeliveryCursor, encodeStatementCursor, encodeTransactionCursor } from '@topup/validation';
import type { ApiFunctionName } from '@topup/validation';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorCatalog } from '@topup/operators';
import { functionNames } from '../functions/registry.js';
import { signedInUser, type ConsoleClient } from '../testing/console-user.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';
import { envelopeOf, xmlRequestBody } from '../testing/wire.js';
import type { XmlField } from '../testing/wire.js';

const RUNS_PER_FUNCTION = 250;
// Through the console every request is JSON and carries no key, so fewer runs cover its variety.
const CONSOLE_RUNS_PER_FUNCTION = 60;

interface Victim {
  readonly accountId: string;
  readonly token: string;
  readonly references: readonly string[];
  readonly endpointId: string;
  readonly secret: string;
  readonly idempotencyKey: string;
  readonly deliveryIds: readonly string[];
  /** Cursors naming the victim's deliveries, as a page that ended at one would give them. */
  readonly deliveryCursors: readonly string[];
  readonly floatRequest: Readonly<Record<string, string>>;
  /** The victim's own: no answer to the attacker may hold one the attacker did not send in that request. */
  readonly private: readonly string[];
}

interface Attacker {
  readonly accountId: string;
  readonly token: string;
  readonly reference: string;
  readonly endpointId: string;
}

/** A request's fields: text, or a list of recipients (`send_airtime`). */
type Fields = Readonly<Record<string, XmlField>>;

interface GeneratedRequest {
  readonly fields: Fields;
  readonly format: 'json' | 'xml';
  readonly idempotencyKey: string | undefined;
}

// A row names an identifier when its text holds it; ids are random enough that nothing else does.
const namesOne = 'EXISTS (SELECT 1 FROM unnest($1::text[]) AS needle WHERE strpos(t::text, needle) > 0)';

/** What to look for: the victim's identifiers and ledger accounts, and the statement that does. */
interface VictimView {
  readonly identifiers: readonly string[];
  readonly ledgerAccountIds: readonly string[];
  readonly statement: string;
}

/**
 * The victim as the snapshot looks for it. Its identifiers are its account id then, to a fixed point, the
 * text `id` and `reference` of every row (in any table) that names one already found: its tokens,
 * endpoints, transactions and deliveries. Found once, before the requests: a row that would add a new one
 * (a delivery to the victim's endpoint, say) names an old one itself, so it changes the snapshot anyway.
 */
async function victimView(db: Queryable, accountId: string): Promise<VictimView> {
  const { rows: keyColumns } = await db.query<{ table: string; column: string }>(
    `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
     WHERE table_schema = current_schema() AND column_name IN ('id', 'reference') AND data_type = 'text'
     ORDER BY table_name, column_name`,
  );
  const identifiers = new Set([accountId]);
  let known: number;
  do {
    known = identifiers.size;
    for (const { table, column } of keyColumns) {
      const { rows } = await db.query<{ key: string }>(
        `SELECT t."${column}" AS key FROM "${table}" t WHERE t."${column}" IS NOT NULL AND ${namesOne}`,
        [[...identifiers]],
      );
      for (const { key } of rows) identifiers.add(key);
    }
  } while (identifiers.size > known);
  const { rows: ledgerAccounts } = await db.query<{ id: string }>(
    'SELECT id::text AS id FROM ledger_accounts WHERE account_id = $1 ORDER BY id',
    [accountId],
  );
  // Identifiers are text, so only text columns can hold one: matching those alone spares turning every
  // timestamp and number into text, and only the rows that match are turned into text whole.
  const { rows: tables } = await db.query<{ name: string; columns: string[] }>(
    `SELECT t.table_name AS name,
       array_remove(array_agg(c.column_name::text ORDER BY c.ordinal_position)
         FILTER (WHERE c.data_type IN ('text', 'character varying')), NULL) AS columns
     FROM information_schema.tables t
     JOIN information_schema.columns c USING (table_schema, table_name)
     WHERE t.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
     GROUP BY t.table_name ORDER BY t.table_name`,
  );
  const naming = tables
    .filter(({ columns }) => columns.length > 0)
    .map(
      ({ name, columns }) =>
        `SELECT '${name}' AS source, t::text AS row FROM "${name}" t
         WHERE concat_ws(' ', ${columns.map((column) => `t."${column}"`).join(', ')}) LIKE ANY ($1::text[])`,
    );
  return {
    identifiers: [...identifiers].sort(),
    ledgerAccountIds: ledgerAccounts.map(({ id }) => id),
    statement: `${naming.join(' UNION ALL ')}
      UNION ALL
      SELECT 'transfers on the victim''s ledger accounts', f::text FROM transfers f
      WHERE f.debit_account_id = ANY ($2::bigint[]) OR f.credit_account_id = ANY ($2::bigint[])
      ORDER BY source, row`,
  };
}

/**
 * Everything in the database that concerns the victim, as text: in every table, each row that names one
 * of the victim's identifiers anywhere in it, so a row of anyone's that points at the victim's endpoint,
 * reference or delivery counts as much as the victim's own rows; plus every transfer on the victim's
 * ledger accounts, whose ids are numbers. One statement, so a snapshot per request stays cheap.
 */
async function snapshotOf(db: Queryable, victim: VictimView): Promise<string> {
  const patterns = victim.identifiers.map((id) => `%${id.replace(/[\\%_]/g, '\\$&')}%`);
  const { rows } = await db.query<{ source: string; row: string }>(victim.statement, [
    patterns,
    victim.ledgerAccountIds,
  ]);
  return rows.map(({ source, row }) => `${source}: ${row}`).join('\n');
}

async function sentReferences(response: Response): Promise<string[]> {
  const envelope = await envelopeOf(response);
  const transactions = envelope.data.transactions as { reference: string }[] | undefined;
  if (transactions === undefined || transactions.length === 0) {
    throw new Error(`Expected the send's transactions in the answer, received ${JSON.stringify(envelope)}`);
  }
  return transactions.map((transaction) => transaction.reference);
}

async function reference(response: Response): Promise<string> {
  const envelope = await envelopeOf(response);
  const transaction = envelope.data.transaction as { reference?: string } | undefined;
  if (transaction?.reference === undefined) {
    throw new Error(`Expected a transaction in the answer, received ${JSON.stringify(envelope)}`);
  }
  return transaction.reference;
}

async function createVictim(service: TestService): Promise<Victim> {
  const { account, token } = await service.createCaller(
    { float: 10_000_000n, airtime: 1_000_000n },
    { name: 'Victim Holdings', mobile: '254700111222', email: 'treasury@victim.example' },
  );
  const added = await envelopeOf(
    await service.call('add_callback_endpoint', {
      token,
      json: { url: 'http://127.0.0.1:9/victim-hooks', format: 'json', description: 'victim hooks' },
    }),
  );
  const endpoint = added.data.endpoint as { id: string; secret: string };
  const secret = endpoint.secret;
  const floatRequest = {
    mobile: '254712345678',
    amount: '150',
    // Sent again by the attacker (to try replaying the victim's key), so nothing secret in it.
    name: 'Shared Agent Wanjiru',
    email: 'agent@shared.example',
    agent_number: '700700',
    store_number: '800800',
  };
  const idempotencyKey = 'victim-order-0001';
  const floatReference = await reference(
    await service.call('send_agent_float', {
      token,
      json: floatRequest,
      headers: { 'Idempotency-Key': idempotencyKey },
    }),
  );
  const airtimeReference = await reference(
    await service.call('buy_airtime', {
      token,
      json: {
        mobile: '254712345677',
        amount: '60',
        name: 'Victim Recipient Otieno',
        payment_network: 'MoneyNetA',
        payment_mobile: '254712345676',
        payment_name: 'Victim Payer Achieng',
      },
    }),
  );
  const sendReferences = await sentReferences(
    await service.call('send_airtime', {
      token,
      json: {
        recipients: [
          { mobile: '254733000456', amount: '40', name: 'Victim Sent Njeri', email: 'njeri@victim.example' },
          { mobile: '254712345677', amount: '25' },
        ],
        note: 'victim payroll march',
      },
    }),
  );
  // Resolved so that callbacks are queued; no worker runs, so nothing moves on its own afterwards.
  await service.ledger.complete(floatReference, { providerCode: 'VICTIMCODE1' });
  await service.ledger.cancel(airtimeReference, {
    reason: 'victim payment declined',
    providerCode: 'VICTIMCODE2',
  });
  const [delivered, declined] = sendReferences;
  await service.ledger.complete(delivered ?? '', { providerCode: 'VICTIMCODE3' });
  await service.ledger.cancel(declined ?? '', {
    reason: 'victim send declined',
    providerCode: 'VICTIMCODE4',
  });
  // One delivery given up, so that resend_failed_callbacks has a failed one of the victim's to reach.
  const [failing, ...others] = await service.ledger.claimDeliveries({
    workerId: 'isolation',
    limit: 10,
    leaseMs: 60_000,
  });
  await service.ledger.recordDeliveryAttempt(failing?.id ?? '', {
    workerId: 'isolation',
    httpStatus: 500,
    durationMs: 1,
    responseExcerpt: 'victim receiver down',
    outcome: 'failed',
  });
  await service.ledger.releaseDeliveries(
    'isolation',
    others.map((delivery) => delivery.id),
  );
  const deliveries = await service.ledger.listDeliveries(account.id, {});
  return {
    accountId: account.id,
    token,
    references: [floatReference, airtimeReference, ...sendReferences],
    endpointId: endpoint.id,
    secret,
    idempotencyKey,
    deliveryIds: deliveries.map((delivery) => delivery.id),
    deliveryCursors: deliveries.map((delivery) =>
      encodeDeliveryCursor({ createdMicros: `${delivery.createdAt.getTime()}000`, id: delivery.id }),
    ),
    floatRequest,
    private: [
      floatReference,
      airtimeReference,
      ...sendReferences,
      endpoint.id,
      account.id,
      token,
      secret,
      secret.slice('whsec_'.length),
      ...deliveries.map((delivery) => delivery.id),
      'Victim Holdings',
      'treasury@victim.example',
      'Victim Recipient Otieno',
      'Victim Payer Achieng',
      'Victim Sent Njeri',
      'njeri@victim.example',
      'victim payroll march',
      'victim send declined',
      'victim receiver down',
      'VICTIMCODE',
    ],
  };
}

async function createAttacker(service: TestService): Promise<Attacker> {
  const { account, token } = await service.createCaller({ float: 10_000_000n, airtime: 5_000_000n });
  const added = await envelopeOf(
    await service.call('add_callback_endpoint', {
      token,
      json: { url: 'http://127.0.0.1:9/attacker-hooks', format: 'json', description: 'mine' },
    }),
  );
  const own = await reference(
    await service.call('send_agent_float', {
      token,
      json: { mobile: '254712000001', amount: '100', agent_number: '1', store_number: '2' },
    }),
  );
  return {
    accountId: account.id,
    token,
    reference: own,
    endpointId: (added.data.endpoint as { id: string }).id,
  };
}

/** How each function's fields are filled: every function must have an entry. */
function requestGenerators(
  victim: Victim,
  attacker: Attacker,
): Record<ApiFunctionName, fc.Arbitrary<Fields>> {
  const junk = fc.string({ maxLength: 24 });
  const referenceValue = fc.oneof(fc.constantFrom(...victim.references, attacker.reference), junk);
  const endpointValue = fc.oneof(fc.constantFrom(victim.endpointId, attacker.endpointId), junk);
  const cursorValue = fc
    .constantFrom(...victim.references)
    .map((reference) => encodeTransactionCursor({ createdMicros: `${Date.now()}000`, reference }));
  // Any subset of the fields: a partial record, with the absent keys left out rather than undefined.
  const money = (fields: Record<string, fc.Arbitrary<string>>): fc.Arbitrary<Record<string, string>> =>
    fc
      .record(fields, { requiredKeys: [] })
      .map((record) =>
        Object.fromEntries(
          Object.entries(record).filter((entry): entry is [string, string] => entry[1] !== undefined),
        ),
      );
  const recipient = fc
    .tuple(
      fc.record({
        mobile: fc.constantFrom(
          '254733000456',
          '254712345677',
          '254712000003',
          '254712000004',
          '254771000111',
        ),
        amount: fc.constantFrom('10', '40', '10', '40', '10000'),
      }),
      money({
        name: fc.constantFrom('Renamed By Attacker', ''),
        email: fc.constantFrom('attacker@example.com', ''),
      }),
    )
    .map(([required, optional]) => ({ ...required, ...optional }));
  return {
    send_agent_float: fc.oneof(
      fc.constant({ ...victim.floatRequest }),
      money({
        mobile: fc.constantFrom(victim.floatRequest.mobile ?? '', '254712000002'),
        amount: fc.constantFrom('100', '150', '0', '99999999'),
        name: fc.constantFrom('Renamed By Attacker', ''),
        agent_number: fc.constantFrom('700700', '1'),
        store_number: fc.constantFrom('800800', '2'),
      }),
    ),
    buy_airtime: money({
      mobile: fc.constantFrom('254712345677', '254712000003'),
      amount: fc.constantFrom('60', '10'),
      name: fc.constantFrom('Renamed By Attacker', ''),
      payment_network: fc.constantFrom('MoneyNetA', 'MoneyNetB'),
      payment_mobile: fc.constantFrom('254712345676', '254712000004'),
    }),
    // Mostly sends that go through, to the victim's recipients among others, named or not (a blank name
    // is filled from the sender's own contacts only), some refused at once (0003) or unavailable (0004),
    // some more than the balance holds; then lists with broken entries, and a list that is no list.
    send_airtime: fc.record(
      {
        recipients: fc.oneof(
          { weight: 4, arbitrary: fc.array(recipient, { minLength: 1, maxLength: 3 }) },
          {
            weight: 1,
            arbitrary: fc.array(
              fc.oneof(recipient, money({ mobile: junk, amount: fc.constantFrom('0', '10') }), junk),
              { maxLength: 3 },
            ),
          },
          { weight: 1, arbitrary: junk },
        ),
        // Not the victim's note: a send stored with it is the attacker's own, and the attacker's later
        // list_transactions would show it back, which reads as a leak of the victim's text.
        note: fc.constantFrom('attacker payroll march', 'attacker note'),
      },
      { requiredKeys: ['recipients'] },
    ),
    get_balance: fc.constant({}),
    get_transaction: fc.record({ reference: referenceValue }),
    add_callback_endpoint: money({
      url: fc.constantFrom('http://127.0.0.1:9/victim-hooks', 'http://127.0.0.1:9/attacker-more'),
      format: fc.constantFrom('json', 'xml'),
      description: junk,
    }),
    list_callback_endpoints: fc.constant({}),
    remove_callback_endpoint: fc.record({ endpoint_id: endpointValue }),
    rotate_callback_secret: fc.record({ endpoint_id: endpointValue }),
    resend_callback: fc.record(
      { reference: referenceValue, endpoint_id: endpointValue },
      { requiredKeys: ['reference'] },
    ),
    // Every filter, with the victim's endpoint and a cursor at each of the victim's deliveries.
    list_callback_deliveries: money({
      reference: referenceValue,
      status: fc.constantFrom('pending', 'delivered', 'failed'),
      endpoint_id: endpointValue,
      from: fc.constantFrom('2000-01-01', '2999-01-01T00:00:00Z'),
      to: fc.constantFrom('2999-01-01', '2000-01-01T00:00:00+03:00'),
      limit: fc.constantFrom('1', '100'),
      cursor: fc.oneof(fc.constantFrom(...victim.deliveryCursors), junk),
    }),
    // The victim's failed delivery is within every `since` but the last.
    resend_failed_callbacks: fc.record(
      {
        since: fc.constantFrom('2000-01-01', '2025-01-01T00:00:00Z', '2999-01-01'),
        endpoint_id: endpointValue,
      },
      { requiredKeys: ['since'] },
    ),
    // The attacker's own endpoint is tested (loopback port 9: refused at once); the victim's never.
    send_test_callback: fc.record({ endpoint_id: endpointValue }),
    // Every filter, with the victim's reference, key, mobiles and a cursor at the victim's transaction.
    list_transactions: money({
      type: fc.constantFrom('Agent Float', 'Airtime'),
      state: fc.constantFrom('requested', 'completed', 'cancelled'),
      from: fc.constantFrom('2000-01-01', '2999-01-01T00:00:00Z'),
      to: fc.constantFrom('2999-01-01', '2000-01-01T00:00:00+03:00'),
      reference: referenceValue,
      idempotency_key: fc.constantFrom(victim.idempotencyKey, 'attacker-key-1'),
      mobile: fc.constantFrom(victim.floatRequest.mobile ?? '', '254712345677', '254733000456'),
      limit: fc.constantFrom('1', '100'),
      cursor: fc.oneof(cursorValue, junk),
    }),
    list_statement: money({
      channel: fc.constantFrom('Agent Float', 'Airtime'),
      from: fc.constantFrom('2000-01-01', '2999-01-01T00:00:00Z'),
      to: fc.constantFrom('2999-01-01', '2000-01-01T00:00:00+03:00'),
      limit: fc.constantFrom('1', '100'),
      cursor: fc.oneof(fc.constantFrom(encodeStatementCursor({ postingId: '1' })), junk),
    }),
  };
}

/** A request for one function: its fields plus stray ones naming the victim, a format and a key. */
function generatedRequest(fields: fc.Arbitrary<Fields>, victim: Victim): fc.Arbitrary<GeneratedRequest> {
  return fc.record({
    fields: fc
      .tuple(fields, fc.boolean())
      .map(([base, stray]) =>
        stray
          ? { ...base, account_id: victim.accountId, account: victim.accountId, token: victim.token }
          : base,
      ),
    format: fc.constantFrom('json' as const, 'xml' as const),
    idempotencyKey: fc.constantFrom(undefined, victim.idempotencyKey, 'attacker-key'),
  });
}

// These tests send hundreds of requests from one address and one session as fast as the server answers.
// Under the default limits (200 a second, bursts of 400) a fast enough run is answered 429 instead of the
// refusal under test, so the limits are set out of reach here; rate-limit tests cover the limits.
const unlimitedRate = { RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' };

describe.each(openTestStores())('isolation between callers over every API function, on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let victim: Victim;
  let attacker: Attacker;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store, { env: unlimitedRate });
    victim = await createVictim(service);
    attacker = await createAttacker(service);
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  it('has a generator for every function the server answers', () => {
    expect(Object.keys(requestGenerators(victim, attacker)).sort()).toEqual([...functionNames].sort());
  });

  it('notices a row of anyone’s that points at the victim’s endpoint, reference, delivery or ledger account', async () => {
    const view = await victimView(store, victim.accountId);
    const snapshot = (db: Queryable) => snapshotOf(db, view);
    const before = await snapshot(store);
    const snapshots: string[] = [];
    const plant = async (tx: Queryable, sql: string, params: readonly unknown[]) => {
      await tx.query(sql, params);
      snapshots.push(await snapshot(tx));
    };
    const delivery = `INSERT INTO callback_deliveries
      (id, endpoint_id, account_id, reference, event, payload, next_attempt_at, created_at, updated_at)
      VALUES ($1, $2, $3, $4, 'completed', '{}', now(), now(), now())`;
    const rolledBack = new Error('planted rows rolled back');
    await expect(
      store.transaction(async (tx) => {
        // The attacker's own transaction, delivered to the victim's endpoint.
        await plant(tx, delivery, [
          'cb_planted_1',
          victim.endpointId,
          attacker.accountId,
          attacker.reference,
        ]);
        // The victim's transaction, delivered to the attacker's endpoint.
        await plant(tx, delivery, [
          'cb_planted_2',
          attacker.endpointId,
          attacker.accountId,
          victim.references[0],
        ]);
        // An attempt of the victim's delivery, naming neither the victim nor a reference, only the delivery.
        await plant(
          tx,
          `INSERT INTO callback_attempts (delivery_id, worker_id, attempted_at, duration_ms, outcome)
           VALUES ($1, 'planted', now(), 1, 'retry')`,
          [victim.deliveryIds[0]],
        );
        // Money onto the victim's float account, naming no transaction at all.
        await plant(
          tx,
          `INSERT INTO transfers (debit_account_id, credit_account_id, amount, kind, purpose, created_at)
           SELECT 1, id, 1, 'single', 'funding', now() FROM ledger_accounts
           WHERE account_id = $1 AND channel = 'float'`,
          [victim.accountId],
        );
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(snapshots).toHaveLength(4);
    for (const [index, after] of snapshots.entries()) {
      expect(after, `the snapshot after planted row ${index + 1}`).not.toBe(
        index === 0 ? before : snapshots[index - 1],
      );
    }
    expect(await snapshot(store)).toBe(before);
  });

  it.each([...functionNames])(
    'never lets a caller read or change another caller’s data through %s',
    async (name) => {
      const generators = requestGenerators(victim, attacker);
      const view = await victimView(store, victim.accountId);
      const before = await snapshotOf(store, view);
      let keyed = 0;
      await fc.assert(
        fc.asyncProperty(generatedRequest(generators[name as ApiFunctionName], victim), async (request) => {
          const body =
            request.format === 'json' ? JSON.stringify(request.fields) : xmlRequestBody(request.fields);
          // A fresh attacker key per run, so each keyed request is evaluated, not replayed.
          keyed += 1;
          const key =
            request.idempotencyKey === 'attacker-key' ? `attacker-key-${keyed}` : request.idempotencyKey;
          const response = await service.call(name, {
            token: attacker.token,
            body,
            headers: {
              'Content-Type': request.format === 'json' ? 'application/json' : 'text/xml',
              ...(key === undefined ? {} : { 'Idempotency-Key': key }),
            },
          });
          const answer = await response.text();
          const sent = `${body} ${key ?? ''}`;
          const leaked = victim.private.filter((text) => answer.includes(text) && !sent.includes(text));
          expect(leaked, `the answer to ${name} ${body} carried the victim's ${leaked.join(', ')}`).toEqual(
            [],
          );
          expect(await snapshotOf(store, view)).toBe(before);
        }),
        { numRuns: RUNS_PER_FUNCTION },
      );
    },
    60_000,
  );
});

describe.each(openTestStores())('isolation between callers through the console, on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let victim: Victim;
  let attacker: Attacker;
  let caller: ConsoleClient;
  let support: ConsoleClient;
  let view: VictimView;
  let before: string;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store, { env: unlimitedRate });
    victim = await createVictim(service);
    attacker = await createAttacker(service);
    caller = await signedInUser(service.url, store, {
      email: 'attacker.caller@example.com',
      role: 'caller',
      account: attacker.accountId,
    });
    support = await signedInUser(service.url, store, {
      email: 'curious.support@example.com',
      role: 'support',
    });
    view = await victimView(store, victim.accountId);
    before = await snapshotOf(store, view);
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  /** Nothing of the victim's in an answer unless the request sent it, and nothing of it changed. */
  async function expectIsolated(what: string, sent: string, answer: string): Promise<void> {
    const leaked = victim.private.filter((text) => answer.includes(text) && !sent.includes(text));
    expect(leaked, `${what} carried the victim's ${leaked.join(', ')}`).toEqual([]);
    expect(await snapshotOf(store, view)).toBe(before);
  }

  it.each([...functionNames])(
    'never lets a caller session read or change another caller’s data through %s',
    async (name) => {
      const generators = requestGenerators(victim, attacker);
      await fc.assert(
        fc.asyncProperty(
          generatedRequest(generators[name as ApiFunctionName], victim),
          fc.boolean(),
          async (request, namesVictim) => {
            const body = JSON.stringify(request.fields);
            const headers: Record<string, string> = namesVictim
              ? { 'X-Topup-Account': victim.accountId }
              : {};
            const answer = await (await caller.post(`/call/${name}`, request.fields, { headers })).text();
            await expectIsolated(
              `the console's answer to ${name} ${body}`,
              `${body} ${headers['X-Topup-Account'] ?? ''}`,
              answer,
            );
          },
        ),
        { numRuns: CONSOLE_RUNS_PER_FUNCTION },
      );
    },
    60_000,
  );

  it('refuses a caller session every operator function, whatever it names', async () => {
    for (const name of Object.keys(operatorCatalog)) {
      const body = {
        account: victim.accountId,
        token_id: victim.token,
        reference: victim.references[0],
        email: 'treasury@victim.example',
        query: 'Victim',
        channel: 'float',
        amount: '1000',
        status: 'closed',
      };
      const answer = await caller.post(`/operator/${name}`, body);
      expect(answer.status, name).toBe(403);
      await expectIsolated(`the operator function ${name}`, JSON.stringify(body), await answer.text());
    }
  });

  it('exports only the session’s own account, whatever account the query names', async () => {
    for (const file of [
      'transactions.csv',
      'statement.csv?channel=Agent%20Float',
      'statement.csv?channel=Airtime',
    ]) {
      const path = `/console/api/export/${file}${file.includes('?') ? '&' : '?'}account=${victim.accountId}`;
      const answer = await fetch(`${service.url}${path}`, { headers: { Cookie: caller.cookie } });
      expect(answer.status).toBe(200);
      await expectIsolated(`the export ${file}`, path, await answer.text());
    }
  });

  it('lets support change nothing through any operator or account function', async () => {
    const changes = Object.entries(operatorCatalog).filter(([, fn]) => fn.access === 'change');
    expect(changes.length).toBeGreaterThan(5);
    const body = {
      account: victim.accountId,
      token_id: victim.token,
      name: 'Support Was Here',
      channel: 'float',
      amount: '1',
      status: 'suspended',
      mode: 'test',
      request_id: 'fund_x',
      leg: `${victim.references[0] ?? ''}-disbursement`,
      as: 'failed',
      email: 'someone@example.com',
      role: 'admin',
    };
    for (const [name] of changes) {
      const answer = await support.post(`/operator/${name}`, body);
      expect(answer.status, name).toBe(403);
      await expectIsolated(`support's ${name}`, JSON.stringify(body), await answer.text());
    }
    for (const name of [
      'add_callback_endpoint',
      'remove_callback_endpoint',
      'rotate_callback_secret',
      'resend_callback',
      'resend_failed_callbacks',
      'send_test_callback',
    ]) {
      const fields = {
        endpoint_id: victim.endpointId,
        reference: victim.references[0],
        url: 'http://127.0.0.1:9/x',
        since: '2000-01-01',
      };
      const answer = await support.post(`/call/${name}`, fields, {
        headers: { 'X-Topup-Account': victim.accountId },
      });
      expect(answer.status, name).toBe(403);
      expect(await snapshotOf(store, view)).toBe(before);
    }
  });
});
