// The console end to end: the real service (apps/server/src/main.ts as a child process, on a PostgreSQL
// schema of its own), users made by the real `topup` CLI, the API called with a bearer token as a caller's
// system does, a local callback receiver, and Debian's Chromium driven by playwright-core. The scenarios
// run in order and build on each other: the operator's account, token and transaction are what the
// caller, support and later scenarios look at. The service allows two failed sign-ins a minute per
// address (AUTH_FAILURE_LIMIT=2), which onboarding people by link must never use up. Screenshots of the
// main screens go to CONSOLE_SCREENSHOTS_DIR (or a temporary folder).

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchChromium, newUserBrowser } from './browser.js';
import type { UserBrowser } from './browser.js';
import { startCallbackReceiver } from './callback-receiver.js';
import type { CallbackReceiver } from './callback-receiver.js';
import { ensureConsoleBuilt } from './console-build.js';
import {
  confirmChange,
  confirmPasswordIfAsked,
  goToScreen,
  navLink,
  setPasswordWithLink,
  signIn,
  signInForm,
  signedInRole,
  takeShownOnceValue,
} from './console-ui.js';
import { startCrossSitePage } from './cross-site-page.js';
import { eventually, withinLimit } from './eventually.js';
import { freeLoopbackPort } from './free-port.js';
import { accountsMatching, errorCode, postFromPage } from './page-requests.js';
import { prerequisites } from './prerequisites.js';
import { saveScreenshot, screenshotsDir } from './screenshots.js';
import { startService } from './service-process.js';
import type { RunningService } from './service-process.js';
import { testDatabase } from './test-database.js';
import type { TestDatabase } from './test-database.js';
import { deliveriesOf, sendAgentFloat } from './topup-api.js';
import { createUser, requestAdmin } from './topup-cli.js';

const needs = prerequisites();
const skipHere = needs.missing.length > 0 && !needs.underCi;
if (skipHere) console.warn(`Console end-to-end suite skipped: ${needs.missing.join('; ')}.`);

const password = 'a long enough e2e password';
const webhookToken = 'wh_console_e2e_0123456789abcdef0123';

const emails = {
  admin: 'ops@example.com',
  caller: 'caller@example.com',
  support: 'support@example.com',
  deputy: 'deputy@example.com',
} as const;
/** People of one office onboarded one after the other, from one address. */
const clerks = ['clerk.one@example.com', 'clerk.two@example.com', 'clerk.three@example.com'] as const;
/** A MoneyNetB agent: no agent or store number needed, and its ending (0123) completes in sandbox. */
const agentMobile = '254733000123';
/** An agent whose ending, 0001, the sandbox declines. */
const decliningAgentMobile = '254733000001';

interface World {
  readonly service: RunningService;
  /** The environment of the service and the CLI. */
  readonly env: Readonly<Record<string, string>>;
  readonly db: TestDatabase;
  readonly receiver: CallbackReceiver;
  readonly browser: Browser;
  readonly shots: string;
}

/** What one scenario leaves for the next. */
interface Story {
  account?: string;
  token?: string;
  reference?: string;
}

function required<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing: an earlier scenario failed before making it`);
  return value;
}

const title = skipHere ? `console end to end (skipped: ${needs.missing.join('; ')})` : 'console end to end';

describe.skipIf(skipHere)(title, { timeout: 120_000 }, () => {
  let world: World | undefined;
  const story: Story = {};
  /** Run in reverse order by afterAll, whatever failed: processes, browsers, servers, the schema. */
  const cleanups: { what: string; run: () => Promise<unknown> }[] = [];
  const users: UserBrowser[] = [];

  const the = (): World => required(world, 'The running service');

  /** A browser context of its own (cookies included) for one user, closed at the end of the suite. */
  async function userBrowser(): Promise<UserBrowser> {
    const user = await newUserBrowser(the().browser);
    users.push(user);
    return user;
  }

  /** Saves the screen, which must show no error notice unless it is about one (`alerts`). */
  async function screenshot(page: Page, name: string, { alerts = 0 } = {}): Promise<void> {
    const shown = await page.getByRole('alert').allTextContents();
    expect(shown, `error notices on the ${name} screen`).toHaveLength(alerts);
    await saveScreenshot(page, the().shots, name);
  }

  beforeAll(async () => {
    if (needs.missing.length > 0)
      throw new Error(`The console's end-to-end suite cannot run: ${needs.missing.join('; ')}.`);
    await ensureConsoleBuilt();
    const db = testDatabase(needs.databaseUrl);
    cleanups.push({ what: `drop schema ${db.schema}`, run: () => db.drop() });
    const port = await freeLoopbackPort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      ...db.env,
      HOST: '127.0.0.1',
      PORT: String(port),
      CONSOLE_URL: url,
      TOPUP_MODE: 'sandbox',
      LOG_LEVEL: 'warn',
      SIMULATOR_DELAY_MS: '200',
      CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true',
      CALLBACK_RETRY_SCHEDULE: '0,1,2',
      FUNDING_APPROVAL_THRESHOLD: '100000',
      // Two failed sign-ins a minute per address: onboarding people by link must cost none.
      AUTH_FAILURE_LIMIT: '2',
      // Nothing from the calling shell may point the service elsewhere.
      REDIS_URL: '',
      PUBLIC_BASE_URL: '',
      PROVIDERS: '',
      // The simulator's webhook route, on which the suite plays a provider that contradicts itself.
      PROVIDER_WEBHOOK_TOKEN: webhookToken,
    };
    const service = await startService(port, env);
    cleanups.push({ what: 'stop the service', run: () => service.stop() });
    const receiver = await startCallbackReceiver();
    cleanups.push({ what: 'close the callback receiver', run: () => receiver.close() });
    const browser = await launchChromium(needs.chromiumPath);
    cleanups.push({ what: 'close Chromium', run: () => browser.close() });
    world = { service, env, db, receiver, browser, shots: screenshotsDir() };
  }, 300_000);

  // Each scenario's browser contexts end with it (within a limit); afterAll closes any left.
  afterEach(async () => {
    const closing = Promise.allSettled(users.splice(0).map((user) => user.close()));
    await withinLimit(closing, 30_000, 'closing the browser contexts');
  }, 60_000);

  afterAll(async () => {
    const failures: string[] = [];
    for (const user of users.splice(0))
      cleanups.push({ what: 'close a browser context', run: () => user.close() });
    for (const { what, run } of cleanups.splice(0).reverse()) {
      try {
        await withinLimit(run(), 30_000, what);
      } catch (error) {
        failures.push(`${what}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
    if (world !== undefined) console.info(`Console screenshots are in ${world.shots}`);
    if (failures.length > 0) throw new Error(`Cleaning up failed:\n${failures.join('\n')}`);
  }, 300_000);

  it('An operator opens the one-time link printed by `topup user create --role admin`, sets a password, creates and funds an account, issues a token, and sees the first transaction made with that token in the account’s transactions screen', async () => {
    const { service, env, db, receiver } = the();
    const admin = await createUser(env, { email: emails.admin, role: 'admin' });
    expect(admin.url.startsWith(`${service.url}/console/link#token=`)).toBe(true);

    const { page, pageErrors } = await userBrowser();
    await setPasswordWithLink(page, admin.url, emails.admin, password);
    expect(await page.getByTestId('user-role').textContent()).toBe('admin');
    expect(new URL(page.url()).pathname).toBe('/console/accounts');
    expect(page.url()).not.toContain('token=');

    // A new account, from the Accounts screen.
    const createForm = page.getByRole('form', { name: 'Create account' });
    await createForm.getByLabel('Name', { exact: true }).fill('Acme Agents');
    await createForm.getByLabel('Email', { exact: true }).fill('float@acme.example');
    await createForm.getByRole('button', { name: 'Create account' }).click();
    const created = page.getByTestId('created-account');
    await created.waitFor();
    const account = ((await created.getByRole('link').textContent()) ?? '').trim();
    expect(account).not.toBe('');
    story.account = account;
    await page.getByTestId('accounts-table').getByRole('link', { name: account, exact: true }).waitFor();

    // Funding needs the password entered within 5 minutes: age the session's confirmation so the
    // console has to ask for it again.
    expect(await db.forgetReauthentication(emails.admin)).toBeGreaterThan(0);
    await goToScreen(page, 'Funding');
    const fundForm = page.getByRole('form', { name: 'Fund a channel' });
    await fundForm.getByLabel('Account', { exact: true }).fill(account);
    await fundForm.getByLabel('Channel').selectOption('float');
    await fundForm.getByLabel('Amount (KES, whole shillings)', { exact: true }).fill('50000');
    await fundForm.getByRole('button', { name: 'Fund', exact: true }).click();
    const fundingOutcome = page.getByTestId('funding-outcome');
    expect(await confirmPasswordIfAsked(page, password, fundingOutcome)).toBe(true);
    expect(await fundingOutcome.textContent()).toContain('Funding applied');
    expect(await fundingOutcome.textContent()).toContain('50,000');

    // A token, shown once, from the account's Tokens screen.
    await goToScreen(page, 'Accounts');
    const accountRow = page.getByTestId('account-row').filter({ hasText: account });
    await accountRow.getByRole('link', { name: 'Tokens', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Tokens', exact: true }).waitFor();
    const issueForm = page.getByRole('form', { name: 'Issue token' });
    await issueForm.getByLabel('Mode').selectOption('test');
    await issueForm.getByRole('button', { name: 'Issue token', exact: true }).click();
    await confirmPasswordIfAsked(page, password, page.getByTestId('shown-once-dialog'));
    const token = await takeShownOnceValue(page);
    expect(token.length).toBeGreaterThan(20);
    story.token = token;
    await page.getByTestId('token-row').first().waitFor();
    expect(await page.getByTestId('shown-once-value').count()).toBe(0);

    // The local receiver as the account's callback endpoint, from the Endpoints screen.
    await goToScreen(page, 'Endpoints');
    const addForm = page.getByRole('form', { name: 'Add endpoint' });
    await addForm.getByLabel('URL', { exact: true }).fill(receiver.url);
    await addForm.getByLabel('Format').selectOption('json');
    await addForm.getByLabel('Description', { exact: true }).fill('Acme’s callback receiver');
    await addForm.getByRole('button', { name: 'Add endpoint', exact: true }).click();
    const secret = await takeShownOnceValue(page);
    expect(secret).not.toBe('');
    await page.getByTestId('endpoint-row').filter({ hasText: receiver.url }).waitFor();

    // The caller's system uses the token: its first transaction, delivered to the receiver.
    const reference = await sendAgentFloat(service.url, token, {
      mobile: agentMobile,
      amount: 1000,
      note: 'First float',
    });
    story.reference = reference;
    await eventually(
      async () => {
        const deliveries = await deliveriesOf(service.url, token, reference);
        if (receiver.countFor(reference) < 1 || deliveries[0]?.status !== 'delivered')
          throw new Error(`deliveries: ${JSON.stringify(deliveries)}`);
      },
      { timeoutMs: 60_000, intervalMs: 500, what: `the callback of ${reference} to be delivered` },
    );

    await goToScreen(page, 'Transactions');
    const row = page.getByTestId('transactions-table').getByRole('row').filter({ hasText: reference });
    await row.waitFor();
    expect(await row.textContent()).toContain('completed');
    expect(await row.textContent()).toContain('1,000');
    expect(pageErrors).toEqual([]);
  });

  it('A caller bound to that account signs in by link, finds the transaction made through the API by its reference, sees its callback attempts and resends the callback', async () => {
    const { service, env, receiver } = the();
    const account = required(story.account, 'The account');
    const token = required(story.token, 'The API token');
    const reference = required(story.reference, 'The first transaction');
    // A second transaction, so that the reference filter has something to leave out.
    const declined = await sendAgentFloat(service.url, token, {
      mobile: decliningAgentMobile,
      amount: 500,
      note: 'Declined float',
    });

    const caller = await createUser(env, { email: emails.caller, role: 'caller', account });
    expect(caller.account).toBe(account);
    const { page, pageErrors } = await userBrowser();
    await setPasswordWithLink(page, caller.url, emails.caller, password);
    expect(await page.getByTestId('user-role').textContent()).toBe('caller');
    expect(new URL(page.url()).pathname).toBe('/console/overview');
    // A caller sees its own account's screens and no operator screen.
    expect(await navLink(page, 'Accounts').count()).toBe(0);

    await goToScreen(page, 'Transactions');
    const table = page.getByTestId('transactions-table');
    await table.getByRole('row').filter({ hasText: declined }).waitFor();
    const filters = page.getByRole('form', { name: 'Transaction filters' });
    await filters.getByLabel('Reference', { exact: true }).fill(reference);
    await filters.getByRole('button', { name: 'Apply filters', exact: true }).click();
    const bodyRows = table.locator('tbody tr');
    await eventually(
      async () => {
        const texts = await bodyRows.allTextContents();
        if (texts.length !== 1 || !texts[0]?.includes(reference))
          throw new Error(`rows: ${JSON.stringify(texts)}`);
      },
      { timeoutMs: 20_000, what: `the transactions filtered to ${reference}` },
    );

    await table.getByRole('link', { name: reference, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: `Transaction ${reference}` }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`/console/transactions/${reference}`);
    await page.getByTestId('transaction-fields').waitFor();
    expect(await page.getByTestId('transaction-fields').textContent()).toContain(reference);
    await page.getByTestId('delivery').first().waitFor();
    const attempts = page.getByTestId('attempts-table').locator('tbody tr');
    await attempts.first().waitFor();
    const statuses = await page
      .getByTestId('attempts-table')
      .locator('tbody tr td:nth-child(2)')
      .allTextContents();
    expect(statuses).toContain('200');
    const attemptsBefore = await attempts.count();
    const arrivedBefore = receiver.countFor(reference);

    await page.getByRole('button', { name: 'Resend callback', exact: true }).click();
    const resendResult = page.getByTestId('resend-result');
    await resendResult.waitFor();
    expect(await resendResult.textContent()).toMatch(/\b1 queued\b/);
    await eventually(
      () => {
        if (receiver.countFor(reference) <= arrivedBefore) throw new Error('nothing arrived yet');
        return Promise.resolve();
      },
      { timeoutMs: 30_000, what: 'the resent callback to reach the receiver' },
    );
    // The new attempt shows on the page once it is read again.
    await eventually(
      async () => {
        await page.reload();
        await page.getByTestId('attempts-table').first().waitFor();
        const count = await attempts.count();
        if (count <= attemptsBefore) throw new Error(`${count} attempts, as before`);
      },
      { timeoutMs: 30_000, intervalMs: 1_000, what: 'a new attempt on the transaction page' },
    );
    expect(pageErrors).toEqual([]);
  });

  it('A support operator sees the accounts, but every change button is disabled and a direct change from the page answers 403 forbidden', async () => {
    const { service, env } = the();
    const account = required(story.account, 'The account');
    const reference = required(story.reference, 'The first transaction');
    const support = await createUser(env, { email: emails.support, role: 'support' });
    const { page, pageErrors } = await userBrowser();
    await setPasswordWithLink(page, support.url, emails.support, password);
    expect(await page.getByTestId('user-role').textContent()).toBe('support');

    const expectReadOnly = async (button: Locator, what: string) => {
      await button.first().waitFor();
      for (const one of await button.all()) {
        expect(await one.isDisabled(), `${what} is disabled`).toBe(true);
        expect(await one.getAttribute('title'), `${what} says why`).toBe('Support is read-only');
      }
    };

    const row = page.getByTestId('account-row').filter({ hasText: account });
    await row.waitFor();
    await expectReadOnly(page.getByRole('button', { name: 'Create account', exact: true }), 'Create account');
    await expectReadOnly(row.getByRole('button', { name: 'Suspend', exact: true }), 'Suspend');
    await expectReadOnly(row.getByRole('button', { name: 'Close', exact: true }), 'Close');

    await goToScreen(page, 'Funding');
    await expectReadOnly(page.getByRole('button', { name: 'Fund', exact: true }), 'Fund');
    await goToScreen(page, 'Users');
    await expectReadOnly(page.getByRole('button', { name: 'Create user', exact: true }), 'Create user');
    await expectReadOnly(page.getByRole('button', { name: 'New link', exact: true }), 'New link');

    await page.goto(`${service.url}/console/accounts/${account}/tokens`);
    await page.getByTestId('token-row').first().waitFor();
    await expectReadOnly(page.getByRole('button', { name: 'Issue token', exact: true }), 'Issue token');
    await expectReadOnly(page.getByRole('button', { name: 'Revoke', exact: true }), 'Revoke');

    await goToScreen(page, 'Endpoints');
    await expectReadOnly(page.getByRole('button', { name: 'Add endpoint', exact: true }), 'Add endpoint');
    await expectReadOnly(
      page.getByRole('button', { name: 'Send test callback', exact: true }),
      'Send test callback',
    );
    await expectReadOnly(page.getByRole('button', { name: 'Rotate secret', exact: true }), 'Rotate secret');
    await expectReadOnly(page.getByRole('button', { name: 'Remove', exact: true }), 'Remove');

    await page.goto(`${service.url}/console/accounts/${account}/transactions/${reference}`);
    await page.getByTestId('transaction-fields').waitFor();
    await expectReadOnly(
      page.getByRole('button', { name: 'Resend callback', exact: true }),
      'Resend callback',
    );

    // The server refuses what the buttons do not offer, with a valid CSRF token.
    const createAnswer = await postFromPage(page, 'operator/create_account', { name: 'Support Was Here' });
    expect(createAnswer.status).toBe(403);
    expect(errorCode(createAnswer)).toBe('forbidden');
    const resendAnswer = await postFromPage(page, 'call/resend_callback', { reference }, { account });
    expect(resendAnswer.status).toBe(403);
    expect(errorCode(resendAnswer)).toBe('forbidden');
    expect(await accountsMatching(page, 'Support Was Here')).toEqual([]);
    expect(pageErrors).toEqual([]);
  });

  it('A signed-in operator’s POST without the X-Topup-CSRF header answers 403 csrf, and a page on another origin that posts to the console changes nothing', async () => {
    const { service } = the();
    const { context, page, pageErrors } = await userBrowser();
    await page.goto(`${service.url}/console/`);
    await signInForm(page).waitFor();
    await signIn(page, emails.admin, password);

    const withoutHeader = await postFromPage(
      page,
      'operator/create_account',
      { name: 'No Csrf Header' },
      { csrf: false },
    );
    expect(withoutHeader.status).toBe(403);
    expect(errorCode(withoutHeader)).toBe('csrf');

    // Another origin (same host, another port): its page fetches and then submits a form to the console,
    // with the operator's session cookie in the browser.
    const target = `${service.url}/console/api/operator/create_account`;
    const attacker = await startCrossSitePage(target, 'Cross Site Corp');
    try {
      const answered: number[] = [];
      context.on('response', (response) => {
        if (response.url() === target) answered.push(response.status());
      });
      const attackPage = await context.newPage();
      await attackPage.goto(attacker.url);
      await eventually(
        () => {
          if (answered.length < 2) throw new Error(`${answered.length} of 2 cross-site requests answered`);
          return Promise.resolve();
        },
        { timeoutMs: 30_000, what: 'the cross-site fetch and form post to be answered' },
      );
      expect(answered).toEqual([403, 403]);
      await attackPage.waitForURL(target);
      expect(await attackPage.locator('body').textContent()).toContain('"csrf"');
      await attackPage.close();
    } finally {
      await attacker.close();
    }

    expect(await accountsMatching(page, 'Cross Site Corp')).toEqual([]);
    expect(await accountsMatching(page, 'No Csrf Header')).toEqual([]);
    // The operator is still signed in and the console still works.
    await goToScreen(page, 'Accounts');
    await page.getByTestId('accounts-table').waitFor();
    expect(pageErrors).toEqual([]);
  });

  it('When the session expires in the database, the next action shows “Your session has ended; sign in again” and the sign-in screen, and signing in again works', async () => {
    const { service, db } = the();
    const { page, pageErrors } = await userBrowser();
    await page.goto(`${service.url}/console/accounts`);
    await signIn(page, emails.admin, password);
    await page.getByTestId('accounts-table').waitFor();

    expect(await db.expireSessions(emails.admin)).toBeGreaterThan(0);
    await navLink(page, 'Audit log').click();
    const notice = page.getByTestId('sign-in-notice');
    await notice.waitFor();
    expect(await notice.textContent()).toBe('Your session has ended; sign in again');
    await signInForm(page).waitFor();
    expect(await page.getByTestId('user-email').count()).toBe(0);

    await signIn(page, emails.admin, password);
    expect(await signedInRole(page, emails.admin)).toBe('admin');
    await page.getByRole('heading', { level: 1, name: 'Audit log', exact: true }).waitFor();
    await page.getByTestId('audit-table').waitFor();
    expect(await page.getByTestId('sign-in-notice').count()).toBe(0);
    expect(pageErrors).toEqual([]);
  });

  it('An operator’s main screens show the account’s data and are saved as screenshots', async () => {
    const { service, db } = the();
    const account = required(story.account, 'The account');
    const reference = required(story.reference, 'The first transaction');
    const { page, pageErrors } = await userBrowser();

    await page.goto(`${service.url}/console/`);
    await signInForm(page).waitFor();
    await screenshot(page, 'sign-in');
    await signIn(page, emails.admin, password);

    await page.getByTestId('accounts-table').waitFor();
    await screenshot(page, 'accounts');

    await page.getByTestId('accounts-table').getByRole('link', { name: account, exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    await page.getByTestId('balance').first().waitFor();
    await page.getByTestId('recent-transactions-table').waitFor();
    expect(await page.getByTestId('balance').count()).toBe(2);
    await screenshot(page, 'overview');

    await goToScreen(page, 'Transactions');
    await page
      .getByTestId('transactions-table')
      .getByRole('link', { name: reference, exact: true })
      .waitFor();
    await screenshot(page, 'operator-transactions');

    await page.getByTestId('transactions-table').getByRole('link', { name: reference, exact: true }).click();
    await page.getByTestId('attempts-table').first().waitFor();
    await page.getByTestId('legs-table').waitFor();
    await page.getByRole('heading', { name: 'Callback deliveries' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'transaction-detail');

    await goToScreen(page, 'Statement');
    await page.getByTestId('statement-table').waitFor();
    expect(await page.getByTestId('statement-balance').textContent()).toContain('Agent Float');
    await screenshot(page, 'statement');

    await goToScreen(page, 'Endpoints');
    await page.getByTestId('endpoint-row').first().waitFor();
    await screenshot(page, 'endpoints');

    await goToScreen(page, 'Deliveries');
    await page.getByTestId('delivery-row').first().waitFor();
    await screenshot(page, 'deliveries');

    // A funding above FUNDING_APPROVAL_THRESHOLD waits for another admin, so the screen lists a request
    // its maker may not approve.
    await db.forgetReauthentication(emails.admin);
    await goToScreen(page, 'Funding');
    const fundForm = page.getByRole('form', { name: 'Fund a channel' });
    await fundForm.getByLabel('Account', { exact: true }).fill(account);
    await fundForm.getByLabel('Channel').selectOption('airtime');
    await fundForm.getByLabel('Amount (KES, whole shillings)', { exact: true }).fill('250000');
    await fundForm.getByRole('button', { name: 'Fund', exact: true }).click();
    const outcome = page.getByTestId('funding-outcome');
    await confirmPasswordIfAsked(page, password, outcome);
    expect(await outcome.textContent()).toContain('awaiting approval');
    const request = page.getByTestId('funding-request-row').filter({ hasText: account });
    await request.waitFor();
    expect(await request.getByRole('button', { name: 'Approve', exact: true }).isDisabled()).toBe(true);
    await screenshot(page, 'funding');

    await goToScreen(page, 'Ledger health');
    await page.getByTestId('ledger-verification').waitFor();
    await screenshot(page, 'ledger-health');

    await goToScreen(page, 'Delivery monitor');
    await page
      .getByText('Every endpoint is keeping up.')
      .or(page.getByTestId('delivery-monitor-table'))
      .waitFor();
    expect(await page.getByRole('alert').count()).toBe(0);

    await goToScreen(page, 'Audit log');
    await page.getByTestId('audit-row').first().waitFor();
    await screenshot(page, 'audit-log');
    expect(pageErrors).toEqual([]);
  });

  it('Three people of one office set their passwords by link one after the other, with two failed sign-ins allowed, and a used link leads to the sign-in form', async () => {
    const { env } = the();
    const links: string[] = [];
    for (const email of clerks) {
      const clerk = await createUser(env, { email, role: 'support' });
      const { page, pageErrors } = await userBrowser();
      await setPasswordWithLink(page, clerk.url, email, password);
      expect(pageErrors).toEqual([]);
      links.push(clerk.url);
    }

    // The first link, used: the page says so and offers the sign-in form, where the clerk signs in.
    const { page, pageErrors } = await userBrowser();
    await page.goto(required(links[0], 'The first link'));
    const notice = page.getByRole('alert');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('unknown, used or expired');
    await screenshot(page, 'link-used', { alerts: 1 });
    await page.getByRole('link', { name: 'Sign in', exact: true }).click();
    await signInForm(page).waitFor();
    await signIn(page, clerks[0], password);
    expect(await page.getByTestId('user-role').textContent()).toBe('support');
    expect(pageErrors).toEqual([]);
  });

  it('An admin disables a user: the user’s open session ends at once and signing in answers as a wrong password; enabling lets them back', async () => {
    const { service } = the();
    const clerk = await userBrowser();
    await clerk.page.goto(`${service.url}/console/accounts`);
    await signIn(clerk.page, clerks[1], password);

    const admin = await userBrowser();
    await admin.page.goto(`${service.url}/console/users`);
    await signIn(admin.page, emails.admin, password);
    const row = admin.page.getByTestId('user-row').filter({ hasText: clerks[1] });
    await row.getByRole('button', { name: 'Disable', exact: true }).click();
    await confirmChange(admin.page);
    await row.getByText('disabled', { exact: true }).waitFor();
    await screenshot(admin.page, 'users');

    await navLink(clerk.page, 'Audit log').click();
    const ended = clerk.page.getByTestId('sign-in-notice');
    await ended.waitFor();
    expect(await ended.textContent()).toBe('Your session has ended; sign in again');
    const form = signInForm(clerk.page);
    await form.getByLabel('Email', { exact: true }).fill(clerks[1]);
    await form.getByLabel('Password', { exact: true }).fill(password);
    await form.getByRole('button', { name: 'Sign in' }).click();
    const refused = clerk.page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('The email or the password is wrong.');

    await row.getByRole('button', { name: 'Enable', exact: true }).click();
    await row.getByText('enabled', { exact: true }).waitFor();
    await form.getByRole('button', { name: 'Sign in' }).click();
    expect(await signedInRole(clerk.page, clerks[1])).toBe('support');
    expect([...admin.pageErrors, ...clerk.pageErrors]).toEqual([]);
  });

  it('A fresh admin, approved by another, cannot approve funding asked for before their account existed, but approves later funding; an admin never approves their own', async () => {
    const { service, env, db } = the();
    const account = required(story.account, 'The account');
    const ops = await userBrowser();
    await ops.page.goto(`${service.url}/console/accounts`);
    await signIn(ops.page, emails.admin, password);

    /**
     * Funds the account's airtime from its own Fund screen, which keeps the account's menu beside it, and
     * answers the amount as the requests table shows it.
     */
    const fundFromAccount = async (amount: string): Promise<string> => {
      await db.forgetReauthentication(emails.admin);
      await goToScreen(ops.page, 'Accounts');
      const accountRow = ops.page.getByTestId('account-row').filter({ hasText: account });
      await accountRow.getByRole('link', { name: 'Fund', exact: true }).click();
      await ops.page.getByRole('heading', { level: 1, name: 'Fund', exact: true }).waitFor();
      expect(await ops.page.getByRole('navigation', { name: 'Screens' }).textContent()).toContain(account);
      const form = ops.page.getByRole('form', { name: 'Fund a channel' });
      await form.getByLabel('Channel').selectOption('airtime');
      await form.getByLabel('Amount (KES, whole shillings)', { exact: true }).fill(amount);
      await form.getByRole('button', { name: 'Fund', exact: true }).click();
      const outcome = ops.page.getByTestId('funding-outcome');
      await confirmPasswordIfAsked(ops.page, password, outcome);
      expect(await outcome.textContent()).toContain('awaiting approval');
      return `KES ${Number(amount).toLocaleString('en-GB')}.00`;
    };
    const before = await fundFromAccount('200000');
    await screenshot(ops.page, 'account-funding');

    // The CLI may ask for an admin, never make one while an admin exists; ops approves and is shown the link.
    const request = await requestAdmin(env, emails.deputy);
    await db.forgetReauthentication(emails.admin);
    await goToScreen(ops.page, 'Users');
    const asked = ops.page.getByTestId('admin-request-row').filter({ hasText: emails.deputy });
    await asked.getByRole('button', { name: 'Approve', exact: true }).click();
    await confirmPasswordIfAsked(ops.page, password, ops.page.getByTestId('shown-once-dialog'));
    const link = await takeShownOnceValue(ops.page);
    expect(link).toContain('/console/link#token=');
    expect(request).not.toBe('');

    const deputy = await userBrowser();
    await setPasswordWithLink(deputy.page, link, emails.deputy, password);
    await goToScreen(deputy.page, 'Funding');
    const older = deputy.page.getByTestId('funding-request-row').filter({ hasText: before });
    await older.getByRole('button', { name: 'Approve', exact: true }).click();
    const refused = deputy.page.getByRole('alert');
    await refused.waitFor();
    expect(await refused.textContent()).toContain('made before your account existed');

    const after = await fundFromAccount('150000');
    await deputy.page.reload();
    const later = deputy.page.getByTestId('funding-request-row').filter({ hasText: after });
    await later.getByRole('button', { name: 'Approve', exact: true }).click();
    await later.getByText('approved', { exact: true }).waitFor();

    // An admin asked for in the console waits too, and its maker cannot approve it.
    await goToScreen(ops.page, 'Users');
    const create = ops.page.getByRole('form', { name: 'Create user' });
    await create.getByLabel('Email', { exact: true }).fill('third.admin@example.com');
    await create.getByLabel('Role').selectOption('admin');
    await create.getByRole('button', { name: 'Create user', exact: true }).click();
    await confirmPasswordIfAsked(ops.page, password, ops.page.getByTestId('admin-request-outcome'));
    const own = ops.page.getByTestId('admin-request-row').filter({ hasText: 'third.admin@example.com' });
    expect(await own.getByRole('button', { name: 'Approve', exact: true }).isDisabled()).toBe(true);
    await screenshot(ops.page, 'users-approvals');
    expect([...ops.pageErrors, ...deputy.pageErrors]).toEqual([]);
  });

  it('A reference the account does not have shows “No such transaction” and nothing to do on it; a transaction’s page names its zone and tells status from state', async () => {
    const { service } = the();
    const account = required(story.account, 'The account');
    const reference = required(story.reference, 'The first transaction');
    const { page, pageErrors } = await userBrowser();
    await page.goto(`${service.url}/console/accounts/${account}/transactions/TXNOSUCHTHING`);
    await signIn(page, emails.admin, password);
    await page.getByRole('heading', { level: 1, name: 'No such transaction' }).waitFor();
    expect(await page.getByRole('button', { name: 'Resend callback' }).count()).toBe(0);
    await screenshot(page, 'no-such-transaction');

    await page.goto(`${service.url}/console/accounts/${account}/transactions/${reference}`);
    const fields = page.getByTestId('transaction-fields');
    await fields.waitFor();
    expect(await fields.textContent()).toContain('Status (API)');
    expect(await page.getByTestId('time-zone').textContent()).toBe('Times in Africa/Nairobi');
    expect(pageErrors).toEqual([]);
  });
  it('A provider result that contradicts a completed float waits in Ledger health with why and its evidence, moves no money, and an operator settles it with the finding', async () => {
    const { service } = the();
    const reference = required(story.reference, 'The first transaction');
    // The simulator, as a provider would, says the float it completed was declined after all.
    const pushed = await fetch(`${service.url}/providers/sandbox/${webhookToken}/result`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        id: `contradiction-${reference}`,
        reference,
        outcome: 'declined',
        provider_code: 'LATE-DECLINE',
        reason: 'declined after all',
      }),
    });
    expect(pushed.status).toBe(200);

    const { page, pageErrors } = await userBrowser();
    await page.goto(`${service.url}/console/`);
    await signIn(page, emails.admin, password);
    await goToScreen(page, 'Ledger health');
    const row = page.getByTestId('review-leg-row').filter({ hasText: `${reference}-disbursement` });
    await eventually(
      async () => {
        await page.reload();
        await row.waitFor({ timeout: 2_000 });
      },
      { what: 'the contradiction in Ledger health' },
    );
    expect(await row.getByTestId('review-reason').textContent()).toBe('contradiction');
    const evidence = (await row.getByTestId('review-evidence').textContent()) ?? '';
    expect(evidence).toContain('reported failed');
    expect(evidence).toContain('LATE-DECLINE');
    expect(evidence).toContain('where completed was recorded');
    await screenshot(page, 'ledger-health-review');

    await row.getByRole('button', { name: 'Resolve as succeeded', exact: true }).click();
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await eventually(
      async () => {
        await page.reload();
        if ((await page.getByTestId('review-leg-row').filter({ hasText: reference }).count()) > 0)
          throw new Error('the leg still waits for review');
      },
      { what: 'the settled review to leave the list' },
    );
    expect(pageErrors).toEqual([]);
  });
});
