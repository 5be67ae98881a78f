import { createLedger, type Ledger, type Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAudit } from './audit-log.js';
import type { ConsoleUserView } from './catalog/index.js';
import { currentSession } from './sessions.js';
import { signIn, signInWithLink, signOut } from './sign-in.js';
import { attempt, call, cliContext, consoleContext, failure } from './testing/operator-calls.js';
import { operatorStores, type OperatorStore } from './testing/operator-stores.js';
import { createSignInLink, createUser, linkUser } from './users.js';

const lifetimes = { idleMs: 30 * 60_000, absoluteMs: 12 * 3_600_000 };
const password = 'a long enough password';

describe.each(operatorStores())('a console user’s lifecycle on %s', (_name, open) => {
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

  async function signedInUser(email: string) {
    const now = new Date();
    const user = await createUser(store, { email, role: 'support' }, now);
    const linked = await signInWithLink(
      store,
      await createSignInLink(store, user.id, now),
      password,
      lifetimes,
      now,
      attempt,
    );
    if (linked.kind !== 'signed_in') throw new Error(`expected to sign in, the link was ${linked.kind}`);
    return linked;
  }

  const actions = async (email: string) =>
    (await listAudit(store, { actor: email, limit: 20 })).records.map((record) => record.action);

  it('ends a disabled user’s sessions and links at once, answers their sign-in as a wrong password, and lets them back when enabled', async () => {
    const { sessionId } = await signedInUser('leaver@example.com');
    const pending = await createSignInLink(
      store,
      (await signedInUser('other@example.com')).user.id,
      new Date(),
    );
    const admin = consoleContext(ledger, store, 'boss@example.com');
    const leaverLink = await call<{ url: string }>(admin, 'user_link', { email: 'leaver@example.com' });

    const disabled = await call<{ user: ConsoleUserView }>(admin, 'disable_user', {
      email: 'leaver@example.com',
    });
    expect(disabled.user.disabled).not.toBe('');
    expect(await currentSession(store, sessionId, lifetimes, new Date())).toBeUndefined();
    const token = leaverLink.url.split('#token=')[1] ?? '';
    expect(await linkUser(store, token, new Date())).toEqual({ kind: 'spent' });
    expect(
      await signIn(store, 'leaver@example.com', password, lifetimes, new Date(), attempt),
    ).toBeUndefined();
    expect((await failure(call(admin, 'user_link', { email: 'leaver@example.com' }))).code).toBe('conflict');
    // Nobody else's session or link is touched.
    expect((await linkUser(store, pending, new Date())).kind).toBe('valid');

    const again = await failure(call(admin, 'disable_user', { email: 'leaver@example.com' }));
    expect(again.message).toBe('leaver@example.com is already disabled.');
    await call(cliContext(ledger, store), 'enable_user', { email: 'leaver@example.com' });
    expect(await signIn(store, 'leaver@example.com', password, lifetimes, new Date(), attempt)).toBeDefined();
    expect(await actions('boss@example.com')).toEqual(['disable_user', 'user_link']);
    expect(await actions('cli:ops')).toEqual(['enable_user']);
  });

  it('refuses support, and an admin disabling themselves', async () => {
    await signedInUser('self@example.com');
    const support = consoleContext(ledger, store, 'reader@example.com', 'support');
    expect((await failure(call(support, 'disable_user', { email: 'self@example.com' }))).code).toBe(
      'forbidden',
    );
    const self = consoleContext(ledger, store, 'self@example.com');
    expect((await failure(call(self, 'disable_user', { email: 'self@example.com' }))).code).toBe('conflict');
  });

  it('audits every sign-in, failed sign-in and sign-out, with the address it came from', async () => {
    const { user } = await signedInUser('audited@example.com');
    const session = await signIn(store, 'Audited@example.com', password, lifetimes, new Date(), attempt);
    if (session === undefined) throw new Error('expected to sign in');
    await signIn(store, 'audited@example.com', 'not the password at all', lifetimes, new Date(), attempt);
    const current = await currentSession(store, session.sessionId, lifetimes, new Date());
    if (current === undefined) throw new Error('expected the session');
    await signOut(store, current, new Date(), attempt);
    const { records } = await listAudit(store, { actor: user.email, limit: 10 });
    expect(records.map((record) => [record.action, record.after])).toEqual([
      ['sign_out', { address: '192.0.2.7' }],
      ['sign_in_failed', { address: '192.0.2.7' }],
      ['sign_in', { address: '192.0.2.7' }],
      ['sign_in', { address: '192.0.2.7', by: 'link' }],
    ]);
  });
});
