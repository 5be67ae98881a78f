// The rehearsal's private registry: Verdaccio on 127.0.0.1 with its storage in a throwaway folder and no
// uplinks, so it holds exactly what the rehearsal publishes and can never fetch or shadow a real package.
// Verdaccio is installed with npm in ./verdaccio, outside the pnpm workspace: one of its dependencies asks
// for `node-fetch@cjs`, a dist-tag the registry no longer serves, which ./verdaccio/package.json overrides.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { killGroup, runCommand, startProcess } from './child-processes.mjs';

const toolDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'verdaccio');
const startTimeoutMs = 30_000;
const stopTimeoutMs = 5_000;

/** Installs Verdaccio from ./verdaccio/package-lock.json unless it is installed already. */
export async function installVerdaccio() {
  if (existsSync(path.join(toolDir, 'node_modules', 'verdaccio', 'package.json'))) return 'already installed';
  await runCommand('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: toolDir });
  return 'installed with npm ci';
}

function configYaml(folder) {
  return `# Written by scripts/rehearsal/verdaccio.mjs for one release rehearsal.
storage: ${JSON.stringify(path.join(folder, 'storage'))}
auth:
  htpasswd:
    file: ${JSON.stringify(path.join(folder, 'htpasswd'))}
    algorithm: bcrypt
    max_users: 1
uplinks: {}
packages:
  '**':
    access: $all
    publish: $authenticated
web:
  enable: false
logs:
  type: stdout
  format: pretty
  level: http
`;
}

function waitForUrl(child, output) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(
          new Error(`Verdaccio did not start within ${startTimeoutMs / 1000}s; it printed:\n${output()}`),
        ),
      startTimeoutMs,
    );
    child.stdout.on('data', () => {
      const match = /^registry-url (\S+)$/m.exec(output());
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`Verdaccio exited with ${code ?? signal} before it started; it printed:\n${output()}`),
      );
    });
  });
}

async function createUser(url) {
  const name = 'rehearsal';
  const response = await fetch(new URL(`-/user/org.couchdb.user:${name}`, url), {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name, password: randomBytes(16).toString('hex'), type: 'user', roles: [] }),
  });
  const body = await response.json();
  if (!response.ok || typeof body.token !== 'string') {
    throw new Error(
      `Expected Verdaccio to create a user and return a token, received ${response.status} ${JSON.stringify(body)}`,
    );
  }
  return body.token;
}

/**
 * Starts Verdaccio with its config and storage in `folder` and creates the one user allowed to publish.
 *
 * @returns {Promise<{ url: string, token: string, log: () => string, stop: () => Promise<void> }>}
 */
export async function startVerdaccio(folder) {
  mkdirSync(folder, { recursive: true });
  const configPath = path.join(folder, 'config.yaml');
  writeFileSync(configPath, configYaml(folder));
  const child = startProcess(process.execPath, [path.join(toolDir, 'serve.mjs'), configPath], {
    cwd: folder,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let printed = '';
  child.stdout.on('data', (chunk) => (printed += chunk));
  child.stderr.on('data', (chunk) => (printed += chunk));
  const log = () => printed.trimEnd();
  const exited = new Promise((resolve) => child.once('exit', resolve));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    killGroup(child, 'SIGTERM');
    const timer = setTimeout(() => killGroup(child, 'SIGKILL'), stopTimeoutMs);
    await exited;
    clearTimeout(timer);
  };

  try {
    const url = await waitForUrl(child, log);
    const token = await createUser(url);
    return { url, token, log, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
