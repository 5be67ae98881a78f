// `pnpm deploy:service` end to end (`pnpm test:deploy`, run by CI): the folder is written, copied to a
// fresh temporary folder outside the workspace, and run from there by plain `node` with only the
// documented environment: topup.mjs migrates and sets up an account, server.mjs serves it as the
// Dockerfile runs it (its user, working directory, environment and health check), worker.mjs delivers the
// callback, and start.mjs does it all in one process on the embedded store. Each time a float completes
// and its callback arrives signed with the endpoint's secret.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from '../apps/server/src/testing/callback-sink.ts';
import { eventually } from '../apps/server/src/testing/eventually.ts';
import { postgresTestUrl, runSql } from '../apps/server/src/testing/postgres-schema.ts';
import { verifyCallback } from '../packages/signing/src/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// The image's unprivileged user: `node` in the official Node.js images is uid and gid 1000.
const imageUsers = { node: 1000 };
const running = new Set();

/** A port that was free a moment ago on loopback. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts `node args` and collects what it prints; `exited` resolves with its exit code. `user` switches
 * to that uid and gid, which only root may do.
 */
function startNode(args, { cwd, env, user }) {
  const child = spawn(process.execPath, args, {
    cwd,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(user === undefined ? {} : { uid: user, gid: user }),
  });
  running.add(child);
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal);
    }),
  );
  return { child, exited, output: () => output };
}

/** Runs `node args` to its end; resolves with its exit code and output. */
async function runNode(args, options) {
  const started = startNode(args, options);
  const timer = setTimeout(() => started.child.kill('SIGKILL'), 60_000);
  const code = await started.exited;
  clearTimeout(timer);
  return { code, output: started.output() };
}

/** Runs the folder's CLI with `--json` and parses its answer; fails with its output otherwise. */
async function topup(folder, args, env) {
  const { code, output } = await runNode([path.join(folder, 'topup.mjs'), ...args, '--json'], {
    cwd: '/',
    env,
  });
  expect(code, output).toBe(0);
  return JSON.parse(output);
}

/** Starts `node args` and waits for the log line that `pattern` finds the process's address in. */
async function startListening(args, options, pattern) {
  const started = startNode(args, options);
  const url = await eventually(
    `${args.join(' ')} to say where it listens`,
    () => {
      if (started.child.exitCode !== null) {
        throw new Error(`${args.join(' ')} exited with ${started.child.exitCode}:\n${started.output()}`);
      }
      return pattern.exec(started.output())?.[1];
    },
    60_000,
    50,
  );
  return {
    ...started,
    url,
    async stop() {
      started.child.kill('SIGTERM');
      return started.exited;
    },
  };
}

/** The real uid of a running process, from /proc (Linux). */
function uidOf(pid) {
  return Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]);
}

const listeningUrl = /"url":"(http:\/\/[^"]+)"[^\n]*is listening/;
const workerUrl = /"url":"(http:\/\/[^"]+)"[^\n]*Topup worker started/;

/**
 * The instructions of a Dockerfile the test acts on: ENV pairs, WORKDIR, USER, EXPOSE and the exec forms
 * of CMD and HEALTHCHECK. Continuation lines are joined first.
 */
function readDockerfile(file) {
  const lines = readFileSync(file, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  const image = { env: {}, expose: [] };
  for (const line of lines) {
    const [, instruction, rest] = /^\s*(\w+)\s+(.*)$/.exec(line);
    if (instruction === 'ENV') {
      for (const [, key, value] of rest.matchAll(/(\w+)=(\S+)/g)) image.env[key] = value;
    } else if (instruction === 'WORKDIR') image.workdir = rest.trim();
    else if (instruction === 'USER') image.user = rest.trim();
    else if (instruction === 'EXPOSE') image.expose.push(...rest.trim().split(/\s+/));
    else if (instruction === 'CMD') image.cmd = JSON.parse(rest);
    else if (instruction === 'HEALTHCHECK') image.healthcheck = JSON.parse(/CMD\s+(\[.*\])/.exec(rest)[1]);
    else if (instruction === 'COPY') image.copy = rest.trim().split(/\s+/);
  }
  return image;
}

/** Sends a float of KES 150 and resolves with its reference, once the service answered `0000`. */
async function sendFloat(url, token) {
  const response = await fetch(`${url}/api/send_agent_float`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ mobile: '254722000123', amount: '150', agent_number: '1', store_number: '2' }),
  });
  const envelope = await response.json();
  expect(envelope.status, JSON.stringify(envelope)).toMatchObject({ code: '0000' });
  return envelope.data.transaction.reference;
}

/** Waits for the callback of `reference`, checks its signature with `secret`, and returns its body. */
async function signedCallback(sink, reference, secret) {
  const callback = await eventually(
    `the callback of ${reference}`,
    () => sink.arrived.find((each) => each.reference === reference),
    30_000,
  );
  const verified = verifyCallback({ secrets: [secret], headers: callback.headers, body: callback.body });
  expect(verified, JSON.stringify(verified)).toMatchObject({ ok: true });
  return JSON.parse(callback.body);
}

/** An account with a funded float channel and a callback endpoint at `sink`, set up with topup.mjs. */
async function setUpCaller(folder, env, sink) {
  const { account, token } = await topup(
    folder,
    ['account', 'create', '--name', 'Deploy Check Agencies'],
    env,
  );
  await topup(
    folder,
    ['channel', 'fund', '--account', account, '--channel', 'float', '--amount', '5000'],
    env,
  );
  const { secret } = await topup(folder, ['endpoint', 'add', '--account', account, '--url', sink.url], env);
  return { token, secret };
}

let work;
let folder;

beforeAll(async () => {
  work = mkdtempSync(path.join(tmpdir(), 'topup-deploy-'));
  // Readable by the image's unprivileged user, as the image's /app is.
  chmodSync(work, 0o755);
  const built = path.join(work, 'built');
  const { code, output } = await new Promise((resolve) => {
    const child = spawn('pnpm', ['deploy:service', built], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let printed = '';
    child.stdout.on('data', (chunk) => (printed += chunk));
    child.stderr.on('data', (chunk) => (printed += chunk));
    child.once('exit', (exitCode) => resolve({ code: exitCode, output: printed }));
  });
  expect(code, output).toBe(0);
  folder = path.join(work, 'elsewhere', 'service');
  cpSync(built, folder, { recursive: true, verbatimSymlinks: true });
  chmodSync(path.dirname(folder), 0o755);
  rmSync(built, { recursive: true, force: true });
}, 300_000);

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  if (work !== undefined) rmSync(work, { recursive: true, force: true });
});

describe('the folder pnpm deploy:service writes', () => {
  it('holds the four entry points, the console and the production packages, with no link and nothing above it to lean on', () => {
    for (const file of ['server.mjs', 'worker.mjs', 'start.mjs', 'topup.mjs', 'console/index.html']) {
      expect(existsSync(path.join(folder, file)), file).toBe(true);
    }
    const packages = readdirSync(path.join(folder, 'node_modules'));
    expect(packages).toEqual(expect.arrayContaining(['@electric-sql', 'koa', 'pg', 'pino', 'zod']));
    for (const unwanted of ['@topup', 'tsx', 'typescript', 'vitest', 'esbuild', 'tsup', 'turbo']) {
      expect(packages).not.toContain(unwanted);
    }
    const links = [];
    const walk = (dir) => {
      for (const entry of readdirSync(dir)) {
        const file = path.join(dir, entry);
        const stat = lstatSync(file);
        if (stat.isSymbolicLink()) links.push(file);
        else if (stat.isDirectory()) walk(file);
      }
    };
    walk(folder);
    expect(links).toEqual([]);
    // Node.js looks for packages in every folder above; none there may hold any.
    for (let dir = path.dirname(folder); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      expect(existsSync(path.join(dir, 'node_modules')), dir).toBe(false);
    }
  });

  const databaseUrl = postgresTestUrl();
  describe.skipIf(databaseUrl === undefined)('against PostgreSQL', () => {
    const schema = `deploy_${randomBytes(6).toString('hex')}`;
    const env = {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: databaseUrl ?? '',
      DATABASE_SCHEMA: schema,
      // The test's callback receiver listens on loopback, which a worker process reaches only with this.
      CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true',
      SIMULATOR_DELAY_MS: '100',
      ...(process.env.REDIS_URL_FOR_TESTS ? { REDIS_URL: process.env.REDIS_URL_FOR_TESTS } : {}),
    };

    afterAll(async () => {
      if (databaseUrl !== undefined) await runSql(databaseUrl, `DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    });

    it('migrates with topup.mjs, serves with the image’s command and health check, and completes a float whose signed callback worker.mjs delivers', async () => {
      const image = readDockerfile(path.join(folder, 'Dockerfile'));
      expect(image.copy).toEqual(['.', image.workdir]);
      expect(image.expose).toEqual([image.env.PORT]);
      const inImage = (arg) =>
        arg.startsWith(`${image.workdir}/`) ? path.join(folder, arg.slice(image.workdir.length)) : arg;
      // Only root may run a process as another user; elsewhere it runs as whoever runs the test.
      const user = process.getuid?.() === 0 ? imageUsers[image.user] : undefined;
      expect(image.user in imageUsers).toBe(true);

      const migrated = await topup(folder, ['migrate'], env);
      expect(migrated.applied.length).toBeGreaterThan(0);
      const sink = await startCallbackSink();
      try {
        const caller = await setUpCaller(folder, env, sink);
        // The image's environment, listening on loopback on a free port instead of every address on 8080.
        const serverEnv = { ...image.env, ...env, HOST: '127.0.0.1', PORT: String(await freePort()) };
        const server = await startListening(
          image.cmd.slice(1).map(inImage),
          { cwd: folder, env: serverEnv, user },
          listeningUrl,
        );
        const workerEnv = { ...serverEnv, WORKER_PORT: String(await freePort()) };
        const worker = await startListening(
          ['--max-old-space-size=256', path.join(folder, 'worker.mjs')],
          { cwd: '/', env: workerEnv, user },
          workerUrl,
        );
        try {
          expect(image.cmd[0]).toBe('node');
          if (user !== undefined) expect(uidOf(server.child.pid)).toBe(user);
          expect(
            await runNode(image.healthcheck.slice(1).map(inImage), { cwd: folder, env: serverEnv, user }),
          ).toMatchObject({
            code: 0,
          });
          expect(
            await runNode([path.join(folder, 'healthcheck.mjs'), 'worker'], {
              cwd: '/',
              env: workerEnv,
              user,
            }),
          ).toMatchObject({ code: 0 });
          const ready = await (await fetch(`${server.url}/readyz`)).json();
          expect(ready.checks).toEqual({
            store: 'ok',
            redis: env.REDIS_URL === undefined ? 'not configured' : 'ok',
          });
          const page = await fetch(`${server.url}/console/`);
          expect(page.status).toBe(200);
          expect(await page.text()).toContain('<div id="root">');

          const reference = await sendFloat(server.url, caller.token);
          const body = await signedCallback(sink, reference, caller.secret);
          expect(body.status).toMatchObject({ type: 'SUCCESS', code: '0000' });
          expect(body.data.transaction).toMatchObject({ reference, state: 'completed' });
        } finally {
          expect(await worker.stop(), worker.output()).toBe(0);
          expect(await server.stop(), server.output()).toBe(0);
        }
      } finally {
        await sink.close();
      }
    });
  });

  describe('on the embedded store', () => {
    it('runs start.mjs from another working directory, takes topup.mjs’s commands through it, and completes a float whose signed callback it delivers', async () => {
      const dataDir = path.join(work, 'data');
      const env = {
        PATH: process.env.PATH ?? '',
        TOPUP_DATA_DIR: dataDir,
        PORT: String(await freePort()),
        SIMULATOR_DELAY_MS: '100',
      };
      const sink = await startCallbackSink();
      const service = await startListening(
        ['--max-old-space-size=256', '--v8-pool-size=1', path.join(folder, 'start.mjs')],
        { cwd: '/', env },
        listeningUrl,
      );
      try {
        expect(service.output()).toContain('A demo account was created');
        const caller = await setUpCaller(folder, env, sink);
        const reference = await sendFloat(service.url, caller.token);
        const body = await signedCallback(sink, reference, caller.secret);
        expect(body.status).toMatchObject({ type: 'SUCCESS', code: '0000' });
      } finally {
        expect(await service.stop(), service.output()).toBe(0);
        await sink.close();
      }
    });
  });
});
