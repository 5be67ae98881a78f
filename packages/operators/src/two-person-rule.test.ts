import { createLedger, type Ledger, type Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminRequestView, FundingOutcome, SignInLinkOutcome } from './catalog/index.js';
import { call, cliContext, consoleContext, failure } from './testing/operator-calls.js';
import { operatorStores, type OperatorStore } from './testing/operator-stores.js';
import { findUserByEmail } from './users.js';

describe.each(operatorStores())('the two-person rule on %s', (_name, open) => {
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

  const admin = (email: string, since?: Date) => consoleContext(ledger, store, email, 'admin', since);

  async function heldFunding(by: string): Promise<string> {
    const account = await ledger.createAccount({ name: `Funded by ${by}` });
    const outcome = await call<FundingOutcome>(admin(by), 'fund_channel', {
      account: account.id,
      channel: 'float',
      amount: '5000',
    });
    if (outcome.state !== 'awaiting_approval') throw new Error('expected the funding to wait');
    return outcome.request.id;
  }

  it('refuses an approval by an admin whose account is younger than the request, and by the CLI', async () => {
    const requestId = await heldFunding('maker.one@example.com');
    const fresh = await failure(
      call(admin('fresh.one@example.com', new Date()), 'approve_funding', { request_id: requestId }),
    );
    expect(fresh.code).toBe('conflict');
    expect(fresh.message).toContain('made before your account existed');
    const cli = await failure(
      call(cliContext(ledger, store, 'root'), 'approve_funding', { request_id: requestId }),
    );
    expect(cli.code).toBe('forbidden');
    const approved = await call<{ request: { state: string; decided_by: string } }>(
      admin('older.one@example.com'),
      'approve_funding',
      { request_id: requestId },
    );
    expect(approved.request).toMatchObject({ state: 'approved', decided_by: 'older.one@example.com' });
  });

  it('holds a new admin made in the console for another, older admin, who is shown the link', async () => {
    const asked = await call<SignInLinkOutcome>(admin('asker@example.com'), 'create_user', {
      email: 'Second.Admin@example.com',
      role: 'admin',
    });
    expect(asked).toMatchObject({
      state: 'awaiting_approval',
      request: { kind: 'create_admin', email: 'second.admin@example.com', requested_by: 'asker@example.com' },
    });
    if (asked.state !== 'awaiting_approval') throw new Error('expected a request');
    expect(await findUserByEmail(store, 'second.admin@example.com')).toBeUndefined();

    const own = await failure(
      call(admin('asker@example.com'), 'approve_admin_request', { request_id: asked.request.id }),
    );
    expect(own.message).toContain('another admin must decide it');
    const approved = await call<{ request: AdminRequestView; user: { role: string }; url: string }>(
      admin('checker.one@example.com'),
      'approve_admin_request',
      { request_id: asked.request.id },
    );
    expect(approved.request.state).toBe('approved');
    expect(approved.user.role).toBe('admin');
    expect(approved.url).toMatch(/#token=[A-Za-z0-9_-]{43}$/);
  });

  it('holds a sign-in link for an admin, never for other roles; from the CLI, only while another admin could approve', async () => {
    // second.admin, made above, is the only admin: a lone admin's lost password needs no one.
    const cli = cliContext(ledger, store);
    const lone = await call<SignInLinkOutcome>(cli, 'user_link', { email: 'second.admin@example.com' });
    expect(lone.state).toBe('created');
    const third = await call<SignInLinkOutcome>(cli, 'create_user', {
      email: 'third@example.com',
      role: 'admin',
    });
    expect(third).toMatchObject({ state: 'awaiting_approval', request: { requested_by: 'cli:ops' } });
    const forAdmin = await call<SignInLinkOutcome>(admin('asker@example.com'), 'user_link', {
      email: 'second.admin@example.com',
    });
    expect(forAdmin.state).toBe('awaiting_approval');
    await call(admin('asker@example.com'), 'create_user', { email: 'reader@example.com', role: 'support' });
    const forSupport = await call<SignInLinkOutcome>(admin('asker@example.com'), 'user_link', {
      email: 'reader@example.com',
    });
    expect(forSupport.state).toBe('created');
    const cliApproval = await failure(
      call(cli, 'approve_admin_request', {
        request_id: forAdmin.state === 'awaiting_approval' ? forAdmin.request.id : '',
      }),
    );
    expect(cliApproval.code).toBe('forbidden');
  });

  it('records the CLI as one actor, `cli:` and its system user, never a name the command chose', async () => {
    const account = await ledger.createAccount({ name: 'Review Ltd' });
    const cli = cliContext(ledger, store, 'root');
    const refused = await failure(
      call(admin('asker@example.com'), 'resolve_leg', {
        leg: `${account.id}-disbursement`,
        as: 'failed',
        by: 'mallory',
      }),
    );
    expect(refused.problems).toEqual(['by: only the CLI may set it']);
    const funded = await call<FundingOutcome>(cli, 'fund_channel', {
      account: account.id,
      channel: 'airtime',
      amount: '5000',
    });
    if (funded.state !== 'awaiting_approval') throw new Error('expected the funding to wait');
    expect(funded.request.requested_by).toBe('cli:root');
  });
});
