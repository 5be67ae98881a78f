import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleClient, consolePassword, newUserLink, signedInUser } from '../testing/console-user.js';
import { frozenRateLimiter } from '../testing/frozen-rate-limiter.js';
import { openTestStores } from '../testing/test-stores.js';
import { startTestService, type TestService } from '../testing/test-service.js';

describe.each(openTestStores())('the console API on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let offsetMs = 0;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store, {
      env: { FUNDING_APPROVAL_THRESHOLD: '50000', CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' },
      clock: () => new Date(Date.now() + offsetMs),
    });
  });
  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  const signIn = (email: string, role: 'admin' | 'support' | 'caller', account?: string) =>
    signedInUser(service.url, store, {
      email,
      role,
      ...(account === undefined ? {} : { account }),
    });

  it('signs in once by link with an HttpOnly, SameSite=Strict cookie and never shows a token twice', async () => {
    const token = await newUserLink(store, {
      email: 'link.user@example.com',
      role: 'support',
    });
    const info = await fetch(`${service.url}/console/api/session/link-info`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(await info.json()).toEqual({ email: 'link.user@example.com' });
    const linked = await fetch(`${service.url}/console/api/session/link`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, password: consolePassword }),
    });
    expect(linked.status).toBe(200);
    expect(linked.headers.get('cache-control')).toBe('no-store');
    expect(linked.headers.get('content-security-policy')).toContain("script-src 'self'");
    const cookie = linked.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(
      /^topup_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Max-Age=43200$/,
    );
    const again = await fetch(`${service.url}/console/api/session/link`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ token, password: consolePassword }),
    });
    expect(again.status).toBe(404);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('not_found');

    const signedIn = await fetch(`${service.url}/console/api/session/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'LINK.USER@example.com', password: consolePassword }),
    });
    const session = (await signedIn.json()) as {
      user: { role: string; account: string };
      csrf: string;
      time_zone: string;
    };
    expect(session.user).toMatchObject({ role: 'support', account: '' });
    // The zone the console shows every time in: the service's, as transaction dates are.
    expect(session.time_zone).toBe('Africa/Nairobi');
    // Signing in starts a new session: the id differs from the link's.
    expect(signedIn.headers.get('set-cookie')?.split(';')[0]).not.toBe(cookie.split(';')[0]);
  });

  it('uses a __Host- Secure cookie when served over HTTPS', async () => {
    const https = await startTestService(store, { env: { TRUST_PROXY: 'true' } });
    try {
      const token = await newUserLink(store, { email: 'tls@example.com', role: 'admin' });
      const answer = await fetch(`${https.url}/console/api/session/link`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-Proto': 'https' },
        body: JSON.stringify({ token, password: consolePassword }),
      });
      expect(answer.headers.get('set-cookie')).toMatch(
        /^__Host-topup_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Strict; Secure; Max-Age=\d+$/,
      );
    } finally {
      await https.stop();
    }
  });

  it('refuses every state change without the CSRF token, from another origin or another site', async () => {
    const admin = await signIn('csrf.admin@example.com', 'admin');
    const refused = [
      await admin.post('/operator/create_account', { name: 'No Token' }, { csrf: false }),
      await admin.post(
        '/operator/create_account',
        { name: 'Wrong Token' },
        { headers: { 'X-Topup-CSRF': 'x'.repeat(43) } },
      ),
      await admin.post(
        '/operator/create_account',
        { name: 'Other Origin' },
        { headers: { Origin: 'https://evil.example' } },
      ),
      await admin.post(
        '/operator/create_account',
        { name: 'Other Site' },
        { headers: { 'Sec-Fetch-Site': 'cross-site' } },
      ),
    ];
    expect(refused.map((answer) => answer.status)).toEqual([403, 403, 403, 403]);
    for (const answer of refused) {
      expect(answer.status).toBe(403);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('csrf');
    }
    const accepted = await admin.post(
      '/operator/create_account',
      { name: 'Same Site' },
      { headers: { 'Sec-Fetch-Site': 'same-origin', Origin: service.url } },
    );
    expect(accepted.status).toBe(200);
    const listed = (await (await admin.post('/operator/list_accounts', { query: 'Token' })).json()) as {
      data: { accounts: unknown[] };
    };
    expect(listed.data.accounts).toEqual([]);
  });

  it('binds a caller session to its own account, whatever account the request names', async () => {
    const mine = await service.createCaller({ float: 100_000n });
    const theirs = await service.createCaller({ float: 700_000n });
    const caller = await signIn('caller.one@example.com', 'caller', mine.account.id);
    const balance = await caller.post(
      '/call/get_balance',
      {},
      { headers: { 'X-Topup-Account': theirs.account.id } },
    );
    expect(balance.status).toBe(200);
    const envelope = (await balance.json()) as { data: { channels: { type: string; balance: number }[] } };
    expect(envelope.data.channels[0]).toMatchObject({ type: 'Agent Float', balance: 1000 });
    const csv = await fetch(
      `${service.url}/console/api/export/statement.csv?channel=Agent%20Float&account=${theirs.account.id}`,
      {
        headers: { Cookie: caller.cookie },
      },
    );
    expect(csv.status).toBe(200);
    expect(await csv.text()).not.toContain('7000.00');

    const operatorOnly = await caller.post('/operator/list_accounts', {});
    expect(operatorOnly.status).toBe(403);
    const money = await caller.post('/call/send_agent_float', {});
    expect(money.status).toBe(403);
    const unknown = await caller.post('/call/no_such_function', {});
    expect(unknown.status).toBe(404);
  });

  it('lets an operator act on a named account, audits the change, and refuses support', async () => {
    const { account } = await service.createCaller({ float: 100_000n });
    const admin = await signIn('endpoint.admin@example.com', 'admin');
    const support = await signIn('endpoint.support@example.com', 'support');
    const add = { url: 'http://127.0.0.1:9/callbacks' };
    const headers = { 'X-Topup-Account': account.id };
    const refused = await support.post('/call/add_callback_endpoint', add, { headers });
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('forbidden');
    const read = await support.post('/call/list_callback_endpoints', {}, { headers });
    expect(read.status).toBe(200);

    const added = await admin.post('/call/add_callback_endpoint', add, { headers });
    expect(added.status).toBe(200);
    const missing = await admin.post('/call/list_callback_endpoints', {});
    expect(missing.status).toBe(400);
    const audit = (await (
      await admin.post('/operator/list_audit', { actor: 'endpoint.admin@example.com' })
    ).json()) as {
      data: { records: { action: string; target: string; after: unknown }[] };
    };
    expect(audit.data.records).toEqual([
      expect.objectContaining({
        action: 'add_callback_endpoint',
        target: account.id,
        after: expect.objectContaining(add) as unknown,
      }),
      expect.objectContaining({ action: 'sign_in', after: { address: '127.0.0.1', by: 'link' } }),
    ]);
  });

  it('audits a caller’s changes like an operator’s, and every sign-in, failed sign-in and sign-out', async () => {
    const { account } = await service.createCaller();
    const caller = await signIn('audited.caller@example.com', 'caller', account.id);
    const added = await caller.post('/call/add_callback_endpoint', { url: 'http://127.0.0.1:9/audited' });
    expect(added.status).toBe(200);
    const wrong = await fetch(`${service.url}/console/api/session/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'audited.caller@example.com', password: 'not the password at all' }),
    });
    expect(wrong.status).toBe(401);
    expect((await caller.post('/session/sign-out')).status).toBe(200);
    const admin = await signIn('audit.reader@example.com', 'admin');
    const audit = (await (
      await admin.post('/operator/list_audit', { actor: 'audited.caller@example.com' })
    ).json()) as { data: { records: { action: string; target: string }[] } };
    expect(audit.data.records.map((record) => [record.action, record.target])).toEqual([
      ['sign_out', 'audited.caller@example.com'],
      ['sign_in_failed', 'audited.caller@example.com'],
      ['add_callback_endpoint', account.id],
      ['sign_in', 'audited.caller@example.com'],
    ]);
  });

  it('ends a disabled user’s session at once, and holds what needs a second admin for an older one', async () => {
    const boss = await signIn('boss@example.com', 'admin');
    const leaver = await signIn('leaver@example.com', 'support');
    await signIn('leaver.admin@example.com', 'admin');
    const disabled = await boss.post('/operator/disable_user', { email: 'leaver@example.com' });
    expect(disabled.status).toBe(200);
    expect((await leaver.get('/session')).status).toBe(401);
    const again = await fetch(`${service.url}/console/api/session/sign-in`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email: 'leaver@example.com', password: consolePassword }),
    });
    expect(again.status).toBe(401);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('invalid_credentials');

    const asked = (await (
      await boss.post('/operator/create_user', { email: 'deputy@example.com', role: 'admin' })
    ).json()) as { data: { state: string; request: { id: string } } };
    expect(asked.data.state).toBe('awaiting_approval');
    // An admin made after the request cannot approve it, however it came to be.
    const fresh = await signIn('fresh.admin@example.com', 'admin');
    const refused = await fresh.post('/operator/approve_admin_request', {
      request_id: asked.data.request.id,
    });
    expect(refused.status).toBe(409);
    const own = await boss.post('/operator/approve_admin_request', { request_id: asked.data.request.id });
    expect(own.status).toBe(409);
    const older = await signIn('older.admin@example.com', 'admin');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const later = (await (
      await boss.post('/operator/user_link', { email: 'older.admin@example.com' })
    ).json()) as { data: { state: string; request: { id: string } } };
    expect(later.data.state).toBe('awaiting_approval');
    const approved = await older.post('/operator/approve_admin_request', {
      request_id: asked.data.request.id,
    });
    expect(approved.status).toBe(409);
    const byAnother = await fresh.post('/operator/approve_admin_request', {
      request_id: later.data.request.id,
    });
    expect(byAnother.status).toBe(200);
    expect(((await byAnother.json()) as { data: { url: string } }).data.url).toContain(
      '/console/link#token=',
    );
    const by = await boss.post('/operator/resolve_leg', {
      leg: 'TXNONE-disbursement',
      as: 'failed',
      by: 'mallory',
    });
    expect(by.status).toBe(400);
  });

  it('asks for the password again before funding once five minutes have passed, and holds large funding for a second admin', async () => {
    const { account } = await service.createCaller();
    const maker = await signIn('maker@example.com', 'admin');
    const checker = await signIn('checker@example.com', 'admin');
    const fund = { account: account.id, channel: 'float', amount: '1000' };
    expect((await maker.post('/operator/fund_channel', fund)).status).toBe(200);
    offsetMs = 6 * 60_000;
    try {
      const stale = await maker.post('/operator/fund_channel', fund);
      expect(stale.status).toBe(403);
      expect(((await stale.json()) as { error: { code: string } }).error.code).toBe(
        'reauthentication_required',
      );
      const wrong = await maker.post('/session/reauthenticate', { password: 'not the password at all' });
      expect(wrong.status).toBe(401);
      const again = await maker.post('/session/reauthenticate', { password: consolePassword });
      expect(again.status).toBe(200);
      const large = (await (
        await maker.post('/operator/fund_channel', { ...fund, amount: '50001' })
      ).json()) as {
        data: { state: string; request: { id: string } };
      };
      expect(large.data.state).toBe('awaiting_approval');
      const own = await maker.post('/operator/approve_funding', { request_id: large.data.request.id });
      expect(own.status).toBe(409);
      await checker.post('/session/reauthenticate', { password: consolePassword });
      const approved = await checker.post('/operator/approve_funding', { request_id: large.data.request.id });
      expect(approved.status).toBe(200);
    } finally {
      offsetMs = 0;
    }
    expect((await service.ledger.balance(account.id, 'float')).availableMinor).toBe(5_100_100n);
  });

  it('ends an idle or expired session with 401 and clears its cookie', async () => {
    const user = await signIn('idle@example.com', 'support');
    expect((await user.get('/session')).status).toBe(200);
    offsetMs = 31 * 60_000;
    try {
      const ended = await user.get('/session');
      expect(ended.status).toBe(401);
      expect(((await ended.json()) as { error: { code: string; message: string } }).error).toEqual({
        code: 'unauthenticated',
        message: 'Your session has ended; sign in again.',
      });
      expect(ended.headers.get('set-cookie')).toContain('Max-Age=0');
    } finally {
      offsetMs = 0;
    }
    const signedOut = await signIn('signed.out@example.com', 'support');
    expect((await signedOut.post('/session/sign-out')).status).toBe(200);
    expect((await signedOut.get('/session')).status).toBe(401);
    expect((await consoleClient(service.url, 'topup_session=forged', '').get('/session')).status).toBe(401);
  });

  it('limits failed sign-ins per address like API tokens', async () => {
    const limited = await startTestService(store, { env: { AUTH_FAILURE_LIMIT: '3' } });
    try {
      const attempt = () =>
        fetch(`${limited.url}/console/api/session/sign-in`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ email: 'idle@example.com', password: 'guess guess guess' }),
        });
      const statuses = [];
      for (let index = 0; index < 5; index += 1) statuses.push((await attempt()).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
    } finally {
      await limited.stop();
    }
  });

  it('answers bad input with a clear error, never a crash', async () => {
    const admin = await signIn('bad.input@example.com', 'admin');
    const answers = await Promise.all([
      fetch(`${service.url}/console/api/session/sign-in`, { method: 'POST', body: '{not json' }),
      fetch(`${service.url}/console/api/session/sign-in`, { method: 'POST', body: '[1]' }),
      admin.post('/operator/fund_channel', { account: 'x', channel: 'savings', amount: '-1' }),
      admin.post('/operator/no_such_function', {}),
      admin.post('/operator/set_account_status', { account: 'acct_missing', status: 'suspended' }),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([400, 400, 400, 404, 404]);
    for (const answer of answers) expect(await answer.json()).toHaveProperty('error.message');
  });
});

describe.each(openTestStores())('the console limits on $name', (stores) => {
  let store: Store;
  const services: TestService[] = [];

  beforeAll(async () => {
    store = await stores.open();
  });
  afterAll(async () => {
    for (const service of services) await service.stop();
    await stores.close(store);
  });

  async function serviceWith(options: Parameters<typeof startTestService>[1]): Promise<TestService> {
    const service = await startTestService(store, options);
    services.push(service);
    return service;
  }

  const post = (service: TestService, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${service.url}/console/api${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  it('lets an office onboard by link under a tight failure limit: only unknown tokens and wrong passwords count', async () => {
    const service = await serviceWith({ env: { AUTH_FAILURE_LIMIT: '2' } });
    for (const person of [1, 2, 3]) {
      const token = await newUserLink(store, {
        email: `office.${person}@example.com`,
        role: 'support',
      });
      expect((await post(service, '/session/link-info', { token })).status).toBe(200);
      expect((await post(service, '/session/link', { token, password: consolePassword })).status).toBe(200);
      // The link screen asks again once the link is used: a link the service made, not a guess.
      const again = await post(service, '/session/link-info', { token });
      expect(again.status).toBe(404);
      expect(((await again.json()) as { error: { code: string } }).error.code).toBe('not_found');
    }
    const guesses = [];
    for (let index = 0; index < 3; index += 1)
      guesses.push((await post(service, '/session/link-info', { token: `guess-${index}` })).status);
    expect(guesses).toEqual([404, 404, 429]);
  });

  it('limits console calls per session and per address like the API, but never signing in', async () => {
    const service = await serviceWith({ env: { TRUST_PROXY: 'true' }, rateLimiter: frozenRateLimiter(3) });
    const [first, second, third] = await Promise.all(
      ['busy.one', 'busy.two', 'busy.three'].map((name) =>
        newUserLink(store, { email: `${name}@example.com`, role: 'support' }),
      ),
    );
    const sessions = [];
    for (const [index, token] of [first, second, third].entries()) {
      // Each from an address of its own, so the links themselves empty no address's bucket.
      const linked = await post(
        service,
        '/session/link',
        { token, password: consolePassword },
        { 'X-Forwarded-For': `198.51.100.${index + 1}` },
      );
      expect(linked.status).toBe(200);
      sessions.push((linked.headers.get('set-cookie') ?? '').split(';')[0] ?? '');
    }
    const [one = '', two = '', three = ''] = sessions;
    const look = (cookie: string, address: string) =>
      fetch(`${service.url}/console/api/session`, {
        headers: { Cookie: cookie, 'X-Forwarded-For': address },
      });

    // One session from ever new addresses: its own bucket runs out.
    const bySession = [];
    for (const address of ['192.0.2.10', '192.0.2.11', '192.0.2.12', '192.0.2.13'])
      bySession.push(await look(one, address));
    expect(bySession.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(((await bySession[3]?.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
    expect(Number(bySession[3]?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);

    // Two sessions from one address: the address's bucket runs out.
    const byAddress = [];
    for (const cookie of [two, two, three, three]) byAddress.push((await look(cookie, '192.0.2.20')).status);
    expect(byAddress).toEqual([200, 200, 200, 429]);

    // Signing in is limited only by failed attempts.
    const signedIn = await post(
      service,
      '/session/sign-in',
      { email: 'busy.two@example.com', password: consolePassword },
      { 'X-Forwarded-For': '192.0.2.20' },
    );
    expect(signedIn.status).toBe(200);
  });
});

describe('the console pages', () => {
  let service: TestService;
  let store: Store;
  const [stores] = openTestStores();

  beforeAll(async () => {
    const buildDir = await mkdtemp(join(tmpdir(), 'topup-console-build-'));
    await mkdir(join(buildDir, 'assets'));
    await writeFile(join(buildDir, 'index.html'), '<!doctype html><title>Topup console</title>');
    await writeFile(join(buildDir, 'assets', 'app-1234.js'), 'console.log(1)');
    if (stores === undefined) throw new Error('expected a store');
    store = await stores.open();
    service = await startTestService(store, { consoleBuildDir: buildDir });
  });
  afterAll(async () => {
    await service.stop();
    await stores?.close(store);
  });

  it('serves the application page for any console path with a strict policy, and assets for a year', async () => {
    for (const path of ['/console', '/console/', '/console/accounts/acct_1/transactions', '/console/link']) {
      const page = await fetch(`${service.url}${path}`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Topup console');
      expect(page.headers.get('content-security-policy')).toBe(
        "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
      );
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      expect(page.headers.get('x-frame-options')).toBe('DENY');
    }
    const asset = await fetch(`${service.url}/console/assets/app-1234.js`);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const escape = await fetch(`${service.url}/console/..%2f..%2fpackage.json`);
    expect(await escape.text()).toContain('Topup console');
    expect((await fetch(`${service.url}/console/api/nothing-here`)).status).toBe(404);
  });
});
