// Runs the service's entry points as real child processes for end-to-end tests: the CLI to completion, and
// the service until it prints the address it listens on.

import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const serverRoot = fileURLToPath(new URL('../..', import.meta.url));
// The worker process is the worker app's entry; the tests run it by path beside the server's own.
const workerEntry = fileURLToPath(new URL('../../../worker/src/main.ts', import.meta.url));

export interface Finished {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function tsx(
  entry: string,
  args: readonly string[],
  env: Record<string, string>,
  nodeFlags: readonly string[] = [],
): ChildProcess {
  return spawn(process.execPath, [...nodeFlags, '--import', 'tsx', entry, ...args], {
    cwd: serverRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** With `closeStdout`, the CLI's stdout is closed at once, as `topup … | head` does when it has read enough. */
export function runCli(
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  options: { readonly closeStdout?: boolean } = {},
): Promise<Finished> {
  return runToExit('src/cli/main.ts', args, env, timeoutMs, options);
}

/** Runs an entry point (the CLI, or the service when it is expected to refuse to start) until it exits. */
export function runToExit(
  entry: string,
  args: readonly string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  { closeStdout = false }: { readonly closeStdout?: boolean } = {},
): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = tsx(entry, args, env);
    if (closeStdout) child.stdout?.destroy();
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

export interface RunningChild {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything printed so far. */
  output(): string;
  /** Sends SIGTERM and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts the service (`src/main.ts`, as `pnpm start`, or `src/serve.ts`, as `pnpm start:server`) and
 * resolves once it listens. `nodeFlags` go to Node.js before the entry, e.g. a start script's heap cap
 * (`startScriptFlags`).
 */
export function startService(
  entry: 'src/main.ts' | 'src/serve.ts',
  env: Record<string, string>,
  timeoutMs = 60_000,
  nodeFlags: readonly string[] = [],
): Promise<RunningChild> {
  return startUntil(
    entry,
    env,
    timeoutMs,
    (output) => /"url":"(http:\/\/[^"]+)"/.exec(output)?.[1],
    nodeFlags,
  );
}

/**
 * The Node.js flags of one of apps/server's start scripts (`node --max-old-space-size=256 dist/start.mjs`
 * gives `['--max-old-space-size=256']`), so a test runs an entry point with an operator's flags.
 */
export function startScriptFlags(script: 'start' | 'start:server'): string[] {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts?: Record<string, string>;
  };
  const words = manifest.scripts?.[script]?.trim().split(/\s+/) ?? [];
  if (words[0] !== 'node') {
    throw new Error(
      `Expected the ${script} script to read "node [--flags] <entry>", received "${words.join(' ')}".`,
    );
  }
  return words.slice(1).filter((word) => word.startsWith('--'));
}

/**
 * Starts `pnpm start:worker` (PostgreSQL only); `url` is its /healthz and /metrics listener, on a free
 * port unless `env` names one. Callbacks may reach loopback, where the tests' receivers listen: a worker
 * process of its own needs the opt-in for that.
 */
export function startWorkerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<RunningChild> {
  return startUntil(
    workerEntry,
    { WORKER_PORT: '0', CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true', ...env },
    timeoutMs,
    (output) => /"url":"(http:\/\/[^"]+)"[^\n]*Topup worker started/.exec(output)?.[1],
  );
}

function startUntil(
  entry: string,
  env: Record<string, string>,
  timeoutMs: number,
  readyUrl: (output: string) => string | undefined,
  nodeFlags: readonly string[] = [],
): Promise<RunningChild> {
  return new Promise((resolve, reject) => {
    const child = tsx(entry, [], env, nodeFlags);
    let output = '';
    const exited = new Promise<number | null>((done) =>
      child.once('exit', (code) => {
        done(code);
      }),
    );
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not start within ${timeoutMs} ms:\n${output}`));
    }, timeoutMs);
    let started = false;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (started) return;
      const url = readyUrl(output);
      if (url === undefined) return;
      started = true;
      clearTimeout(timer);
      resolve({
        child,
        url,
        output: () => output,
        stop: () => {
          child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited with ${code} before listening:\n${output}`));
    });
  });
}
