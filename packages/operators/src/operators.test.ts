import { createLedger, type Ledger, type Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from './audit-log.js';
import { callOperatorFunction } from './call-operator-function.js';
import { attempt, consoleContext as context, failure } from './testing/operator-calls.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { currentSession, endSession } from './sessions.js';
import { signIn, signInWithLink } from './sign-in.js';
import { operatorStores, type OperatorStore } from './testing/operator-stores.js';
import { createSignInLink, createUser, linkUser } from './users.js';

const lifetimes = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };
const password = 'a long enough password';

describe('passwords', () => {
  it('are kept as salted scrypt hashes that only the same password matches', async () => {
    const [first, second] = await Promise.all([hashPassword(password), hashPassword(password)]);
    expect(first).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(first).not.toBe(second);
    expect(first).not.toContain(password);
    expect(await verifyPassword(password, first)).toBe(true);
    expect(await verifyPassword(`${password}!`, first)).toBe(false);
    expect(await verifyPassword(password, 'not a hash')).toBe(false);
  });
});

describe.each(operatorStores())('the console rules on %s', (_name, open) => {
  let opened: OperatorStore;
  let store: Store;
  let ledger: Ledger;

  beforeAll(async () => {
    opened = await open();
    store = opened.store;
    ledger = createLedger(store);
  });
  afterAll(async () => {
    await ledger.close();
    await opened.dispose();
  });

  async function signedInWithLink(token: string, now: Date, newPassword = password) {
    const outcome = await signInWithLink(store, token, newPassword, lifetimes, now, attempt);
    if (outcome.kind !== 'signed_in') throw new Error(`expected to sign in, the link was ${outcome.kind}`);
    return outcome;
  }

  it('lets a sign-in link set the password once, within 15 minutes, and ends older links', async () => {
    const now = new Date();
    const user = await createUser(store, { email: 'Link@Example.com', role: 'admin' }, now);
    expect(user.email).toBe('link@example.com');
    const older = await createSignInLink(store, user.id, now);
    const token = await createSignInLink(store, user.id, now);
    expect(await linkUser(store, older, now)).toEqual({ kind: 'spent' });
    expect(await linkUser(store, token, now)).toMatchObject({
      kind: 'valid',
      user: { email: 'link@example.com' },
    });
    expect(await linkUser(store, token, new Date(now.getTime() + 15 * 60_000 + 1))).toEqual({
      kind: 'spent',
    });
    expect(await linkUser(store, 'never-made', now)).toEqual({ kind: 'unknown' });

    expect((await failure(signInWithLink(store, token, 'short', lifetimes, now, attempt))).code).toBe(
      'invalid',
    );
    const signedIn = await signedInWithLink(token, now);
    expect(signedIn.user.hasPassword).toBe(true);
    expect(await signInWithLink(store, token, password, lifetimes, now, attempt)).toEqual({ kind: 'spent' });
    expect(await signInWithLink(store, 'never-made', password, lifetimes, now, attempt)).toEqual({
      kind: 'unknown',
    });
    expect(await signIn(store, 'LINK@example.com', password, lifetimes, now, attempt)).toBeDefined();
    expect(
      await signIn(store, 'link@example.com', 'the wrong password', lifetimes, now, attempt),
    ).toBeUndefined();
    expect(await signIn(store, 'nobody@example.com', password, lifetimes, now, attempt)).toBeUndefined();
  });

  it('refuses a caller user without an account, and an operator bound to one', async () => {
    const now = new Date();
    const missing = await failure(createUser(store, { email: 'c@example.com', role: 'caller' }, now));
    expect(missing.problems).toEqual(['account is required for a caller user']);
    const account = await ledger.createAccount({ name: 'Duka' });
    const bound = await failure(
      createUser(store, { email: 'o@example.com', role: 'support', accountId: account.id }, now),
    );
    expect(bound.problems).toEqual(['account is only for caller users, received one for role support']);
    const bad = await failure(createUser(store, { email: 'nope', role: 'root' }, now));
    expect(bad.problems).toHaveLength(2);
  });

  it('ends a session when idle, at its absolute lifetime, at sign-out and when the password changes', async () => {
    const start = new Date();
    const user = await createUser(store, { email: 'session@example.com', role: 'support' }, start);
    const signedIn = await signedInWithLink(await createSignInLink(store, user.id, start), start);
    const at = (ms: number) => new Date(start.getTime() + ms);

    expect((await currentSession(store, signedIn.sessionId, lifetimes, at(20 * 60_000)))?.role).toBe(
      'support',
    );
    // Seen at 20 minutes, so still alive at 45, but not after 30 idle minutes from there.
    expect(await currentSession(store, signedIn.sessionId, lifetimes, at(45 * 60_000))).toBeDefined();
    expect(await currentSession(store, signedIn.sessionId, lifetimes, at(76 * 60_000))).toBeUndefined();

    const busy = await signIn(store, 'session@example.com', password, lifetimes, start, attempt);
    if (busy === undefined) throw new Error('expected a session');
    for (let minute = 20; minute < 12 * 60; minute += 20)
      expect(await currentSession(store, busy.sessionId, lifetimes, at(minute * 60_000))).toBeDefined();
    expect(await currentSession(store, busy.sessionId, lifetimes, at(12 * 3_600_000 + 1))).toBeUndefined();

    const ended = await signIn(store, 'session@example.com', password, lifetimes, start, attempt);
    const session = ended && (await currentSession(store, ended.sessionId, lifetimes, start));
    if (ended === undefined || session === undefined) throw new Error('expected a session');
    await endSession(store, session, start);
    expect(await currentSession(store, ended.sessionId, lifetimes, start)).toBeUndefined();

    const other = await signIn(store, 'session@example.com', password, lifetimes, start, attempt);
    if (other === undefined) throw new Error('expected a session');
    await signInWithLink(
      store,
      await createSignInLink(store, user.id, start),
      `${password} 2`,
      lifetimes,
      start,
      attempt,
    );
    expect(await currentSession(store, other.sessionId, lifetimes, start)).toBeUndefined();
  });

  it('lets support read but never change, and asks for the password again before issuing a token', async () => {
    const support = context(ledger, store, 'support@example.com', 'support');
    const listed = (await callOperatorFunction(support, 'list_accounts', {}, { reauthenticated: false })) as {
      accounts: unknown[];
    };
    expect(Array.isArray(listed.accounts)).toBe(true);
    const refused = await failure(
      callOperatorFunction(support, 'create_account', { name: 'X' }, { reauthenticated: true }),
    );
    expect(refused.code).toBe('forbidden');

    const admin = context(ledger, store, 'admin@example.com');
    const { account } = (await callOperatorFunction(
      admin,
      'create_account',
      { name: 'Acme' },
      { reauthenticated: false },
    )) as {
      account: { id: string };
    };
    const stale = await failure(
      callOperatorFunction(admin, 'issue_token', { account: account.id }, { reauthenticated: false }),
    );
    expect(stale.code).toBe('reauthentication_required');
    const issued = (await callOperatorFunction(
      admin,
      'issue_token',
      { account: account.id },
      { reauthenticated: true },
    )) as {
      token: string;
    };
    expect(issued.token).toMatch(/^tk_test_/);
    const { records } = await listAudit(store, { actor: 'admin@example.com', limit: 10 });
    expect(records.map((record) => record.action)).toEqual(['issue_token', 'create_account']);
    // The token itself is shown once and never recorded.
    expect(JSON.stringify(records)).not.toContain(issued.token);
    const invalid = await failure(
      callOperatorFunction(
        admin,
        'set_account_status',
        { account: account.id, status: 'gone' },
        { reauthenticated: true },
      ),
    );
    expect(invalid.problems).toEqual([expect.stringMatching(/^status: /)]);
  });

  it('credits funding above the threshold once, only on another admin approval, and audits each step', async () => {
    const maker = context(ledger, store, 'maker@example.com');
    const checker = context(ledger, store, 'checker@example.com');
    const account = await ledger.createAccount({ name: 'Big Funder' });
    const small = (await callOperatorFunction(
      maker,
      'fund_channel',
      { account: account.id, channel: 'float', amount: '1000' },
      { reauthenticated: true },
    )) as {
      state: string;
      available: string;
    };
    expect(small).toMatchObject({ state: 'applied', available: '1000.00' });

    const big = (await callOperatorFunction(
      maker,
      'fund_channel',
      { account: account.id, channel: 'float', amount: '1000.01' },
      { reauthenticated: true },
    )) as {
      state: string;
      request: { id: string };
    };
    expect(big.state).toBe('awaiting_approval');
    expect((await ledger.balance(account.id, 'float')).availableMinor).toBe(100_000n);

    const own = await failure(
      callOperatorFunction(
        maker,
        'approve_funding',
        { request_id: big.request.id },
        { reauthenticated: true },
      ),
    );
    expect(own.code).toBe('conflict');
    const approvals = await Promise.allSettled(
      Array.from({ length: 4 }, () =>
        callOperatorFunction(
          checker,
          'approve_funding',
          { request_id: big.request.id },
          { reauthenticated: true },
        ),
      ),
    );
    expect(approvals.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    expect((await ledger.balance(account.id, 'float')).availableMinor).toBe(200_001n);
    expect((await ledger.verify()).ok).toBe(true);

    const rejectedLate = await failure(
      callOperatorFunction(
        checker,
        'reject_funding',
        { request_id: big.request.id },
        { reauthenticated: true },
      ),
    );
    expect(rejectedLate.message).toContain('already approved');
    const actions = (await listAudit(store, { limit: 50 })).records
      .filter((record) => record.target === account.id)
      .map((record) => `${record.actor} ${record.action}`);
    expect(actions).toEqual([
      'checker@example.com approve_funding',
      'maker@example.com fund_channel',
      'maker@example.com fund_channel',
    ]);
  });

  it('applies at most one of eight concurrent fundings that together pass the threshold; the rest wait for a second admin', async () => {
    const admin = {
      ...context(ledger, store, 'racer@example.com'),
      fundingApprovalThresholdMinor: 100_000_000n,
    };
    const account = await ledger.createAccount({ name: 'Racing Funder' });
    const outcomes = (await Promise.all(
      Array.from({ length: 8 }, () =>
        callOperatorFunction(
          admin,
          'fund_channel',
          { account: account.id, channel: 'float', amount: '900000' },
          { reauthenticated: true },
        ),
      ),
    )) as { state: string }[];
    expect(outcomes.filter((outcome) => outcome.state === 'applied')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.state === 'awaiting_approval')).toHaveLength(7);
    expect((await ledger.balance(account.id, 'float')).availableMinor).toBe(90_000_000n);
  });

  it('pages the audit log newest first without repeating a record', async () => {
    const admin = context(ledger, store, 'pager@example.com');
    for (let index = 0; index < 7; index += 1)
      await callOperatorFunction(
        admin,
        'create_account',
        { name: `Paged ${index}` },
        { reauthenticated: false },
      );
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listAudit(store, { actor: 'pager@example.com', before: cursor, limit: 3 });
      seen.push(...page.records.map((record) => (record.after as { name: string }).name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(seen).toEqual(['Paged 6', 'Paged 5', 'Paged 4', 'Paged 3', 'Paged 2', 'Paged 1', 'Paged 0']);
  });
});
