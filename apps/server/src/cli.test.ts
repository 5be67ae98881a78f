import { randomBytes } from 'node:crypto';
import { chown, lstat, mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { createInterface } from 'node:readline';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallbackDeliveryView } from '@topup/envelope';
import { createLedger, openStore } from '@topup/ledger';
import { parseSendAgentFloat } from '@topup/validation';
import { startCallbackSink } from './testing/callback-sink.js';
import { runCli, runToExit, startService } from './testing/child-process.js';
import { eventually } from './testing/eventually.js';
import { postgresTestUrl, runSql } from './testing/postgres-schema.js';

/** Every path below `root` (itself included) that anyone but its owner may use, with its mode. */
async function openToOthers(root: string): Promise<string[]> {
  const status = await lstat(root);
  const here = (status.mode & 0o077) === 0 ? [] : [`${root} ${(status.mode & 0o777).toString(8)}`];
  if (!status.isDirectory()) return here;
  const below = await Promise.all((await readdir(root)).map((entry) => openToOthers(join(root, entry))));
  return [...here, ...below.flat()];
}

/** Sends one command line to a running service's socket as any client could, and reads its answer. */
async function socketCommand(path: string, request: unknown): Promise<unknown> {
  const socket = connect(path);
  socket.write(`${JSON.stringify(request)}\n`);
  for await (const line of createInterface({ input: socket })) {
    socket.destroy();
    return JSON.parse(line) as unknown;
  }
  throw new Error('the service closed its socket without an answer');
}

const allMigrations = [
  '0001_ledger',
  '0003_callback_schedule_restart',
  '0004_queue_indexes',
  '0005_leaner_transaction_writes',
  '0006_unapplied_resolutions',
  '0007_fair_claims',
  '0008_transaction_legs',
  '0009_airtime_from_balance',
  '0010_console_listings',
  '0011_delivery_listing',
  '0012_mobile_listing',
  '0013_leg_reviews',
  'providers/0001_simulator_jobs',
  'providers/0002_webhook_inbox',
  'providers/0003_access_tokens',
  'providers/0004_submission_ids',
  'providers/0005_inbox_retries',
  'operators/0001_console',
  'operators/0002_two_person_rule',
];

describe('the operator CLI and `pnpm start` as real processes', () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'topup-cli-'));
    env = {
      TOPUP_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      SIMULATOR_DELAY_MS: '100',
      DATABASE_URL: '',
    };
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates and funds an account, then the started service answers it over HTTP', async () => {
    const created = await runCli(
      ['account', 'create', '--name', 'Acme Agencies', '--mobile', '254700000100', '--json'],
      env,
    );
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    const { account, token } = JSON.parse(created.stdout) as { account: string; token: string };
    expect(token).toMatch(/^tk_test_[A-Za-z0-9]{32}$/);

    const funded = await runCli(
      ['channel', 'fund', '--account', account, '--channel', 'float', '--amount', '5000', '--json'],
      env,
    );
    expect(funded.code).toBe(0);
    expect(JSON.parse(funded.stdout)).toMatchObject({ available: '5000.00' });

    const service = await startService('src/main.ts', env);
    try {
      expect(service.output()).not.toContain('demo account');
      const response = await fetch(`${service.url}/api/send_agent_float`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ mobile: '254733000123', amount: '1000' }),
      });
      expect(response.status).toBe(200);
      const envelope = (await response.json()) as {
        status: { code: string };
        data: { channel: { balance: number } };
      };
      expect(envelope.status.code).toBe('0000');
      expect(envelope.data.channel.balance).toBe(4000);
    } finally {
      expect(await service.stop()).toBe(0);
    }

    const verified = await runCli(['ledger', 'verify', '--json'], env);
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true });
  });

  it('finishes a request in flight on SIGTERM before it exits', async () => {
    const created = await runCli(['account', 'create', '--name', 'Late Caller', '--json'], env);
    const { token } = JSON.parse(created.stdout) as { token: string };
    const service = await startService('src/main.ts', env);
    const url = new URL(service.url);
    const socket = connect(Number(url.port), url.hostname);
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', resolve));
    const body = '{}';
    // `Expect: 100-continue`: the server's "100 Continue" proves the request has started before the signal.
    socket.write(
      `POST /api/get_balance HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n` +
        'Connection: close\r\n\r\n',
    );
    await eventually('100 Continue', () => (received.includes('100 Continue') ? true : undefined), 30_000);
    const exited = service.stop();
    await eventually(
      'the service to start shutting down',
      () => (service.output().includes('shutting down') ? true : undefined),
      30_000,
    );
    socket.end(body);
    await closed;
    expect(received).toMatch(/HTTP\/1\.1 200 OK/);
    expect(received).toContain('"code":"0000"');
    expect(await exited).toBe(0);
  });

  it('explains a bad option instead of failing with a stack trace', async () => {
    const result = await runCli(
      ['channel', 'fund', '--account', 'acc_x', '--channel', 'savings', '--amount', '1'],
      env,
    );
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('--channel must be float or airtime, received "savings"');
  });

  it('manages callback endpoints under the API’s URL policy, and lists and resends deliveries', async () => {
    const sink = await startCallbackSink(() => ({ status: 200, body: 'got it' }));
    try {
      const created = await runCli(['account', 'create', '--name', 'Hooks Ltd', '--json'], env);
      const { account, token } = JSON.parse(created.stdout) as { account: string; token: string };

      const refused = await runCli(
        ['endpoint', 'add', '--account', account, '--url', 'https://user:pass@127.0.0.1/hooks'],
        env,
      );
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain("'url is invalid': expected a URL without a user name or password");
      // The API's answer to the same URL: 3000, with the reason for the operator.
      const metadata = await runCli(
        ['endpoint', 'add', '--account', account, '--url', 'http://169.254.169.254/latest/', '--json'],
        env,
      );
      expect(metadata.code).toBe(1);
      expect(JSON.parse(metadata.stderr)).toMatchObject({
        error: {
          kind: 'failure',
          code: 'url_refused',
          message: expect.stringMatching(/^'url is invalid': .*169\.254\.169\.254 \(link-local/) as string,
        },
      });

      const added = await runCli(
        ['endpoint', 'add', '--account', account, '--url', sink.url, '--format', 'json', '--json'],
        env,
      );
      expect(added.code).toBe(0);
      const { endpoint, secret } = JSON.parse(added.stdout) as { endpoint: string; secret: string };
      expect(secret).toMatch(/^whsec_/);
      const listed = await runCli(['endpoint', 'list', '--account', account, '--json'], env);
      expect(JSON.parse(listed.stdout)).toMatchObject([{ id: endpoint, url: sink.url, enabled: 'true' }]);
      expect(listed.stdout).not.toContain(secret);
      await runCli(['channel', 'fund', '--account', account, '--channel', 'float', '--amount', '500'], env);

      const service = await startService('src/main.ts', env);
      let reference = '';
      try {
        const response = await fetch(`${service.url}/api/send_agent_float`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ mobile: '254733000123', amount: '100' }),
        });
        reference = ((await response.json()) as { data: { transaction: { reference: string } } }).data
          .transaction.reference;
        await eventually('the callback', () =>
          sink.arrived.find((callback) => callback.reference === reference),
        );
        // The worker records the attempt after the answer arrives; stopping waits for it.
      } finally {
        expect(await service.stop()).toBe(0);
      }

      const deliveries = await runCli(
        ['callback', 'deliveries', '--account', account, '--reference', reference, '--json'],
        env,
      );
      expect(deliveries.code).toBe(0);
      const [delivery] = JSON.parse(deliveries.stdout) as CallbackDeliveryView[];
      expect(delivery).toMatchObject({
        endpoint_id: endpoint,
        reference,
        status: 'delivered',
        // The sink is on loopback, not public: its status shows, never what it answered.
        attempts: [{ http_status: '200', outcome: 'delivered', response_excerpt: '', error: '' }],
      });
      const failed = await runCli(
        ['callback', 'deliveries', '--account', account, '--status', 'failed', '--json'],
        env,
      );
      expect(JSON.parse(failed.stdout)).toEqual([]);

      const resent = await runCli(
        ['callback', 'resend', '--account', account, '--reference', reference, '--json'],
        env,
      );
      expect(JSON.parse(resent.stdout)).toEqual({ reference, deliveries: 1 });
      const toUnknownEndpoint = await runCli(
        ['callback', 'resend', '--account', account, '--reference', reference, '--endpoint', 'ep_missing'],
        env,
      );
      expect(toUnknownEndpoint.code).toBe(1);
      expect(toUnknownEndpoint.stderr).toBe(
        `topup: No enabled callback endpoint ep_missing on account ${account} to resend ${reference} to.\n`,
      );
      const pending = await runCli(
        ['callback', 'deliveries', '--account', account, '--status', 'pending'],
        env,
      );
      expect(pending.stdout).toContain(`${delivery?.id}  ${reference}  ${endpoint}  pending  next attempt `);
      expect(pending.stdout).toContain('delivered      200');

      const badStatus = await runCli(
        ['callback', 'deliveries', '--account', account, '--status', 'lost'],
        env,
      );
      expect(badStatus.code).toBe(64);
      expect(badStatus.stderr).toContain('--status must be pending, delivered or failed, received "lost"');

      // Each change is audited as the CLI's one actor, with the account it changed.
      const audit = JSON.parse((await runCli(['audit', 'list', '--json'], env)).stdout) as {
        records: { actor: string; action: string; target: string }[];
      };
      const changes = audit.records.filter((record) => record.target === account);
      expect(changes.map((record) => record.action)).toEqual(
        expect.arrayContaining([
          'resend_callback',
          'add_callback_endpoint',
          'fund_channel',
          'create_account',
        ]),
      );
      for (const change of changes) expect(change.actor).toBe(`cli:${userInfo().username}`);
    } finally {
      await sink.close();
    }
  }, 180_000);

  it('creates a demo account with ready-to-paste curl commands on a brand-new data folder', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'topup-fresh-'));
    try {
      const service = await startService('src/main.ts', { ...env, TOPUP_DATA_DIR: fresh });
      try {
        const token = /API token, shown only now: (tk_test_\w+)/.exec(service.output())?.[1];
        expect(token).toBeDefined();
        expect(service.output()).toContain(`curl -s ${service.url}/api/send_agent_float`);
        const balance = await fetch(`${service.url}/api/get_balance`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${token ?? ''}` },
        });
        expect(((await balance.json()) as { status: { code: string } }).status.code).toBe('0000');
      } finally {
        await service.stop();
      }
      // The data folder, the database's files and the CLI's socket are the running user's alone.
      expect(await openToOthers(fresh)).toEqual([]);
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  });

  it('refuses to start on a data folder another user owns, saying whose it is', async () => {
    const parent = await mkdtemp(join(tmpdir(), 'topup-theirs-'));
    try {
      const theirs = join(parent, 'data');
      await mkdir(theirs);
      // As root the test gives the folder away; as anyone else, root's own root folder is another user's.
      const dataDir = process.getuid?.() === 0 ? theirs : '/';
      if (dataDir === theirs) await chown(theirs, 65534, 65534);
      const refused = await runToExit('src/main.ts', [], { ...env, TOPUP_DATA_DIR: dataDir });
      expect(refused.code).toBe(78);
      expect(refused.stderr).toContain(`The embedded store's folder ${dataDir} belongs to user`);
      expect(await readdir(theirs)).toEqual([]);
    } finally {
      await rm(parent, { recursive: true, force: true });
    }
  });
});

// Each test runs several CLI processes, each starting Node and opening the store: with the rest of the
// suite running beside them on two cores, a test can take over a minute without anything being wrong.
describe('the operator commands', { timeout: 180_000 }, () => {
  let dataDir: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'topup-cli-ops-'));
    env = { TOPUP_DATA_DIR: dataDir, DATABASE_URL: '', PORT: '0', HOST: '127.0.0.1' };
  });

  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('migrates a brand-new store and reports what it applied, then that nothing is left', async () => {
    const first = await runCli(['migrate', '--json'], env);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ applied: allMigrations });
    const second = await runCli(['migrate'], env);
    expect(second.code).toBe(0);
    expect(second.stdout).toBe('Schema is up to date.\n');
  });

  it('lists the resolutions refused because their transaction was already resolved the other way', async () => {
    const store = await openStore({ dataDir });
    let reference: string;
    try {
      const ledger = createLedger(store);
      const account = await ledger.createAccount({ name: 'Late Results Ltd' });
      await ledger.fund(account.id, 'float', 100_000n);
      const parsed = parseSendAgentFloat({ mobile: '254733000123', amount: '100' });
      if (!parsed.ok) throw new Error(parsed.errors.join(', '));
      const outcome = await ledger.requestAgentFloat({ accountId: account.id, request: parsed.value });
      if (outcome.kind !== 'created') throw new Error(`Expected a transaction, received ${outcome.kind}.`);
      reference = outcome.transaction.reference;
      await ledger.cancel(reference, { reason: 'no result from the provider within the timeout' });
      await ledger.complete(reference, { providerCode: 'LATE-7' });
      await ledger.close();
    } finally {
      await store.close();
    }

    const listed = await runCli(['ledger', 'unapplied', '--reference', reference, '--json'], env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      {
        reference,
        asked: 'completed',
        state: 'cancelled',
        provider_code: 'LATE-7',
        reason: '',
        received: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) as string,
      },
    ]);
    const human = await runCli(['ledger', 'unapplied', '--reference', reference], env);
    expect(human.stdout).toContain(`${reference}  asked completed, was cancelled  provider code LATE-7`);
    const none = await runCli(['ledger', 'unapplied', '--reference', 'TXNONE'], env);
    expect(none.stdout).toBe('No unapplied resolutions.\n');
  });

  it('lists the legs waiting for review and settles one, recording who did, and nothing else', async () => {
    const store = await openStore({ dataDir });
    const references: string[] = [];
    try {
      const ledger = createLedger(store);
      const account = await ledger.createAccount({ name: 'Review Ltd' });
      await ledger.fund(account.id, 'float', 100_000n);
      const parsed = parseSendAgentFloat({ mobile: '254733000123', amount: '100' });
      if (!parsed.ok) throw new Error(parsed.errors.join(', '));
      for (let index = 0; index < 2; index += 1) {
        const outcome = await ledger.requestAgentFloat({ accountId: account.id, request: parsed.value });
        if (outcome.kind !== 'created') throw new Error(`Expected a transaction, received ${outcome.kind}.`);
        references.push(outcome.transaction.reference);
        await ledger.noteUnsettledLeg(outcome.transaction.reference, {
          state: 'unknown',
          provider: 'sandbox',
          nextQueryAt: new Date(),
          review: true,
        });
      }
      await ledger.close();
    } finally {
      await store.close();
    }
    const [failedRef = '', waitingRef = ''] = references;

    const waiting = await runCli(['legs', 'unresolved', '--json'], env);
    expect(waiting.code).toBe(0);
    expect((JSON.parse(waiting.stdout) as { id: string }[]).map((leg) => leg.id)).toEqual(
      expect.arrayContaining([`${failedRef}-disbursement`, `${waitingRef}-disbursement`]),
    );

    const settled = await runCli(
      ['legs', 'resolve', '--leg', `${failedRef}-disbursement`, '--as', 'failed', '--by', 'amina', '--json'],
      env,
    );
    expect(settled.code).toBe(0);
    expect(JSON.parse(settled.stdout)).toEqual({
      settled: true,
      transaction: { reference: failedRef, state: 'cancelled' },
      why: '',
    });
    const legs = await runCli(['legs', 'list', '--reference', failedRef, '--json'], env);
    expect(JSON.parse(legs.stdout)).toMatchObject([
      { state: 'failed', reviewed_by: 'amina', provider: 'sandbox' },
    ]);
    const listed = await runCli(['legs', 'list', '--reference', failedRef], env);
    expect(listed.stdout).toContain(`${failedRef}-disbursement  failed  via sandbox`);
    expect(listed.stdout).toContain('settled by amina');

    const again = await runCli(
      ['legs', 'resolve', '--leg', `${failedRef}-disbursement`, '--as', 'succeeded'],
      env,
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(`Expected a leg waiting for review with id ${failedRef}-disbursement`);
    const badOutcome = await runCli(
      ['legs', 'resolve', '--leg', `${waitingRef}-disbursement`, '--as', 'maybe'],
      env,
    );
    expect(badOutcome.code).toBe(64);
    const still = await runCli(['legs', 'unresolved', '--json'], env);
    expect((JSON.parse(still.stdout) as { id: string }[]).map((leg) => leg.id)).toContain(
      `${waitingRef}-disbursement`,
    );
  });

  it('suspends, resumes and closes an account, and refuses to reopen a closed one', async () => {
    const created = await runCli(['account', 'create', '--name', 'Status Shop'], env);
    expect(created.code).toBe(0);
    const account = /Created account (\S+) \(Status Shop\)\./.exec(created.stdout)?.[1] ?? '';
    expect(created.stdout).toMatch(/API token \(shown only now\): tk_test_[A-Za-z0-9]{32}\n$/);

    const suspended = await runCli(['account', 'suspend', '--account', account], env);
    expect(suspended.stdout).toBe(`Account ${account} is now suspended.\n`);
    const resumed = await runCli(['account', 'resume', '--account', account, '--json'], env);
    expect(JSON.parse(resumed.stdout)).toEqual({ account, status: 'active' });
    const closed = await runCli(['account', 'close', '--account', account], env);
    expect(closed.stdout).toBe(`Account ${account} is now closed.\n`);

    const reopened = await runCli(['account', 'resume', '--account', account, '--json'], env);
    expect(reopened.code).toBe(1);
    expect(reopened.stdout).toBe('');
    expect(JSON.parse(reopened.stderr)).toMatchObject({ error: { kind: 'failure', code: 'account_closed' } });

    const listed = await runCli(['account', 'list'], env);
    expect(listed.stdout).toMatch(new RegExp(`^${account}  closed     Status Shop$`, 'm'));
  });

  it('issues, lists and revokes tokens, showing a token only when it is issued', async () => {
    const created = await runCli(['account', 'create', '--name', 'Token Shop', '--json'], env);
    const { account, token, tokenId } = JSON.parse(created.stdout) as Record<string, string>;

    const issued = await runCli(['token', 'issue', '--account', account ?? '', '--mode', 'live'], env);
    expect(issued.code).toBe(0);
    const liveId = /^Issued token (\S+)\.$/m.exec(issued.stdout)?.[1] ?? '';
    expect(issued.stdout).toMatch(/API token \(shown only now\): tk_live_[A-Za-z0-9]{32}\n$/);

    const revoked = await runCli(['token', 'revoke', '--token-id', tokenId ?? ''], env);
    expect(revoked.stdout).toBe(`Revoked token ${tokenId}.\n`);

    const human = await runCli(['token', 'list', '--account', account ?? ''], env);
    const lines = human.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines).toContain(`${tokenId}  ${token?.slice(0, 12)}…  test  revoked`);
    expect(lines.find((line) => line.startsWith(liveId))).toMatch(
      /^\S+ {2}tk_live_\w{4}… {2}live {2}active$/,
    );
    expect(human.stdout).not.toContain(token);
    const json = await runCli(['token', 'list', '--account', account ?? '', '--json'], env);
    const tokens = JSON.parse(json.stdout) as { id: string; mode: string; revoked: string }[];
    expect(tokens.map((t) => [t.id, t.mode, t.revoked !== '']).sort()).toEqual(
      [
        [tokenId, 'test', true],
        [liveId, 'live', false],
      ].sort(),
    );
  });

  it('answers a failure as a JSON object on stderr with --json, and as a line without it', async () => {
    const unknownCommand = await runCli(['account', 'rename', '--json'], env);
    expect(unknownCommand.code).toBe(64);
    expect(unknownCommand.stdout).toBe('');
    expect(JSON.parse(unknownCommand.stderr)).toEqual({
      error: { kind: 'usage', message: 'unknown command "account rename"' },
    });

    const badOption = await runCli(['account', 'list', '--colour', 'red', '--json'], env);
    expect(badOption.code).toBe(64);
    expect(JSON.parse(badOption.stderr)).toMatchObject({ error: { kind: 'usage' } });

    const badConfig = await runCli(['account', 'list', '--json'], { ...env, TZ: 'Mars/Olympus' });
    expect(badConfig.code).toBe(78);
    const { error } = JSON.parse(badConfig.stderr) as { error: { kind: string; problems: string[] } };
    expect(error.kind).toBe('configuration');
    expect(error.problems[0]).toMatch(/^TZ: expected an IANA time zone/);

    const unknownAccount = await runCli(
      ['channel', 'fund', '--account', 'acc_missing', '--channel', 'float', '--amount', '1'],
      env,
    );
    expect(unknownAccount.code).toBe(1);
    expect(unknownAccount.stderr).toMatch(/^topup: .+\n$/);
    expect(unknownAccount.stderr).not.toContain('{');
  });

  it('fails with exit 1 and a not-found code naming what is missing, for unknown endpoints and references', async () => {
    const created = await runCli(['account', 'create', '--name', 'Missing Things', '--json'], env);
    const { account } = JSON.parse(created.stdout) as { account: string };

    for (const action of ['remove', 'rotate']) {
      const result = await runCli(
        ['endpoint', action, '--account', account, '--endpoint', 'ep_missing', '--json'],
        env,
      );
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(JSON.parse(result.stderr)).toEqual({
        error: {
          kind: 'failure',
          code: 'endpoint_not_found',
          message: `No callback endpoint ep_missing on account ${account}.`,
        },
      });
    }

    const resend = await runCli(
      ['callback', 'resend', '--account', account, '--reference', 'TXMISSING'],
      env,
    );
    expect(resend.code).toBe(1);
    expect(resend.stdout).toBe('');
    expect(resend.stderr).toBe(`topup: No transaction TXMISSING on account ${account}.\n`);
    const resendJson = await runCli(
      ['callback', 'resend', '--account', account, '--reference', 'TXMISSING', '--json'],
      env,
    );
    expect(JSON.parse(resendJson.stderr)).toMatchObject({
      error: { kind: 'failure', code: 'transaction_not_found' },
    });
  });

  it('exits quietly with its own code when the reader closes the pipe early, as `| head` does', async () => {
    await runCli(['account', 'create', '--name', 'Pipe Shop'], env);
    for (const args of [['--help'], ['account', 'list', '--json']]) {
      const result = await runCli(args, env, 60_000, { closeStdout: true });
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
  });

  it('runs commands through the service while it holds the embedded store, and says what to do when nothing answers', async () => {
    const service = await startService('src/main.ts', env);
    try {
      const created = await runCli(
        ['user', 'create', '--email', 'First.Operator@example.com', '--role', 'admin', '--json'],
        env,
      );
      expect(created.stderr).toBe('');
      expect(created.code).toBe(0);
      const user = JSON.parse(created.stdout) as { email: string; role: string; url: string };
      expect(user).toMatchObject({ email: 'first.operator@example.com', role: 'admin' });
      expect(user.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/console\/link#token=[A-Za-z0-9_-]{43}$/);
      const link = await runCli(['user', 'link', '--email', 'first.operator@example.com'], env);
      expect(link.code).toBe(0);
      expect(link.stdout).toContain('One-time sign-in link (valid 15 minutes');
      const duplicate = await runCli(
        ['user', 'create', '--email', 'first.operator@example.com', '--role', 'admin', '--json'],
        env,
      );
      expect(duplicate.code).toBe(1);
      expect(JSON.parse(duplicate.stderr)).toMatchObject({ error: { kind: 'failure', code: 'conflict' } });
      const audit = await runCli(['audit', 'list', '--json'], env);
      // Newest first: every earlier command in this data folder is audited too.
      const { records } = JSON.parse(audit.stdout) as { records: Record<string, unknown>[] };
      expect(records.slice(0, 2)).toMatchObject([
        {
          actor: expect.stringMatching(/^cli:/) as unknown,
          action: 'user_link',
          target: 'first.operator@example.com',
        },
        { action: 'create_user', target: 'first.operator@example.com' },
      ]);

      // The service records its own system user, whatever name a client of its socket sends.
      const raw = await socketCommand(join(dataDir, 'cli.sock'), {
        command: 'user create',
        options: { email: 'socket.user@example.com', role: 'support' },
        operator: 'mallory',
      });
      expect(raw).toMatchObject({ ok: true });
      const disabled = await runCli(['user', 'disable', '--email', 'socket.user@example.com'], env);
      expect(disabled.stdout).toBe('socket.user@example.com is disabled.\n');
      const approve = await runCli(['funding', 'approve', '--request', 'fund_x'], env);
      expect(approve.code).toBe(64);
      expect(approve.stderr).toContain('unknown command "funding approve"');
      const latest = JSON.parse((await runCli(['audit', 'list', '--json'], env)).stdout) as {
        records: { actor: string; action: string; target: string }[];
      };
      expect(latest.records.slice(0, 2)).toEqual([
        expect.objectContaining({ actor: `cli:${userInfo().username}`, action: 'disable_user' }),
        expect.objectContaining({ actor: `cli:${userInfo().username}`, action: 'create_user' }),
      ]);
      expect(JSON.stringify(latest)).not.toContain('mallory');

      // With the service's socket gone, the lock's holder cannot take commands: the CLI says what to do.
      await rm(join(dataDir, 'cli.sock'));
      const human = await runCli(['account', 'list'], env);
      expect(human.code).toBe(75);
      expect(human.stderr).toContain(`The embedded store in ${dataDir} is in use by process`);
      expect(human.stderr).toContain('stop the server (pnpm start)');
      const json = await runCli(['account', 'list', '--json'], env);
      expect(json.code).toBe(75);
      expect(JSON.parse(json.stderr)).toMatchObject({ error: { kind: 'store-locked' } });
    } finally {
      expect(await service.stop()).toBe(0);
    }
    expect((await runCli(['account', 'list'], env)).code).toBe(0);
  });
});

describe.skipIf(postgresTestUrl() === undefined)('the operator commands on PostgreSQL', () => {
  const databaseUrl = postgresTestUrl() ?? '';
  const schema = `cli_${randomBytes(6).toString('hex')}`;
  const env = { DATABASE_URL: databaseUrl, DATABASE_SCHEMA: schema, PORT: '0', HOST: '127.0.0.1' };

  afterAll(async () => {
    await runSql(databaseUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  });

  it('migrates a brand-new schema and reports what it applied', async () => {
    const first = await runCli(['migrate', '--json'], env);
    expect(first.stderr).toBe('');
    expect(JSON.parse(first.stdout)).toEqual({ applied: allMigrations });
    expect(JSON.parse((await runCli(['migrate', '--json'], env)).stdout)).toEqual({ applied: [] });
  });

  it('creates no demo account when `pnpm start` runs on PostgreSQL with no accounts', async () => {
    const service = await startService('src/main.ts', env);
    try {
      expect(service.output()).not.toContain('demo account');
    } finally {
      expect(await service.stop()).toBe(0);
    }
    const listed = await runCli(['account', 'list', '--json'], env);
    expect(JSON.parse(listed.stdout)).toEqual({ accounts: [], next_cursor: '' });
  });
});
