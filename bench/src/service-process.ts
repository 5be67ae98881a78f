// The processes under test: the service's own entry points (and the bare Koa baseline) run as children of
// the harness, so the load generator never shares their event loop. Their logs (stdout, info level) are
// written to a real file in the temp directory, as a production process writes to its log sink, and the file
// is removed when the process stops; the last of their stderr is kept to explain a failure.

import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { startScriptFlags } from './start-script-flags.js';

/**
 * Whether the service runs from its TypeScript sources through tsx (`BENCH_FROM_SOURCE=1`) instead of the
 * compiled files its start scripts run, to measure what the build saves.
 */
export const fromSource = process.env['BENCH_FROM_SOURCE'] === '1';

function repositoryFile(path: string): string {
  return fileURLToPath(new URL(`../../${path}`, import.meta.url));
}

/**
 * The entry points the harness can start, as files of this repository: by default the compiled files the
 * start scripts run (`pnpm bench` builds them first), as production runs them.
 */
export const entryPoints = {
  /** `pnpm start`: server and worker in one process (the embedded store's shape). */
  service: repositoryFile(fromSource ? 'apps/server/src/main.ts' : 'apps/server/dist/start.mjs'),
  /** `pnpm start:server`: the HTTP server alone against PostgreSQL. */
  server: repositoryFile(fromSource ? 'apps/server/src/serve.ts' : 'apps/server/dist/server.mjs'),
  /** `pnpm start:worker`: the worker alone against PostgreSQL. */
  worker: repositoryFile(fromSource ? 'apps/worker/src/main.ts' : 'apps/worker/dist/worker.mjs'),
  /** The bare Koa endpoint every case is compared with. */
  baseline: fileURLToPath(new URL('./baseline-server.ts', import.meta.url)),
} as const;

export type EntryPoint = keyof typeof entryPoints;

/** The start script whose Node.js flags each entry point runs with; the baseline has none. */
const startScripts: Readonly<Record<EntryPoint, readonly ['server' | 'worker', string] | undefined>> = {
  service: ['server', 'start'],
  server: ['server', 'start:server'],
  worker: ['worker', 'start'],
  baseline: undefined,
};

export interface ServiceProcess {
  readonly entry: EntryPoint;
  readonly pid: number;
  /** `http://127.0.0.1:<port>` for HTTP entry points. */
  readonly url: string;
  /** Resident memory of the process now, from /proc (Linux); undefined elsewhere. */
  residentBytes(): Promise<number | undefined>;
  /** Undefined while it runs; its exit code (or signal) and the last of its stderr once it has exited. */
  exitReport(): string | undefined;
  /** SIGTERM, then SIGKILL if it has not exited within 15 s; resolves with the exit code. */
  stop(): Promise<number | null>;
}

const stderrKeptBytes = 8 * 1024;
const tsxLoader = import.meta.resolve('tsx');

/** A port that was free a moment ago on 127.0.0.1. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', resolve);
  });
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) =>
    probe.close(() => {
      resolve();
    }),
  );
  return port;
}

async function residentBytesOf(pid: number): Promise<number | undefined> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kilobytes = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kilobytes === undefined ? undefined : Number(kilobytes) * 1024;
  } catch {
    return undefined;
  }
}

async function waitUntilHealthy(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(
        `Expected the service at ${url} to start, but it exited with ${child.exitCode}:\n${stderr()}`,
      );
    }
    try {
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      throw new Error(`Expected the service at ${url} to answer /healthz within 60 s:\n${stderr()}`);
    }
    await sleep(100);
  }
}

/**
 * Starts an entry point with `env` on top of the harness's environment and, for HTTP entry points, waits
 * until it answers `/healthz`. `port` is for a case that must name the server's address before it starts
 * (live mode's PUBLIC_BASE_URL, a fake provider's callback URL); otherwise any free one is taken.
 */
export async function startServiceProcess(
  entry: EntryPoint,
  env: Readonly<Record<string, string>>,
  options: { cpuProfileDir?: string | undefined; port?: number } = {},
): Promise<ServiceProcess> {
  const port = entry === 'worker' ? 0 : (options.port ?? (await freePort()));
  const profiling =
    options.cpuProfileDir === undefined ? [] : ['--cpu-prof', `--cpu-prof-dir=${options.cpuProfileDir}`];
  const logFolder = await mkdtemp(join(tmpdir(), `topup-bench-${entry}-`));
  const logFile = openSync(join(logFolder, 'stdout.log'), 'a');
  const script = startScripts[entry];
  const flags = script === undefined ? [] : await startScriptFlags(...script);
  const loader = entry === 'baseline' || fromSource ? ['--import', tsxLoader] : [];
  const child = spawn(process.execPath, [...flags, ...profiling, ...loader, entryPoints[entry]], {
    // A worker's /healthz and /metrics listener takes any free port, so runs side by side never collide.
    env: { ...process.env, ...env, PORT: String(port), WORKER_PORT: '0', HOST: '127.0.0.1' },
    stdio: ['ignore', logFile, 'pipe'],
  });
  // The child holds its own descriptor of the file now.
  closeSync(logFile);
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-stderrKeptBytes);
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      resolve(code);
    }),
  );
  const pid = child.pid;
  if (pid === undefined) throw new Error(`Expected ${entry} to start, but it has no process id:\n${stderr}`);
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    const code = await exited;
    clearTimeout(killer);
    await rm(logFolder, { recursive: true, force: true });
    return code;
  };
  if (entry !== 'worker') {
    try {
      await waitUntilHealthy(url, child, () => stderr);
    } catch (error) {
      await stop();
      throw error;
    }
  }
  const exitReport = () =>
    child.exitCode === null && child.signalCode === null
      ? undefined
      : `${entry} exited with ${child.exitCode ?? child.signalCode ?? 'nothing'}:\n${stderr}`;
  return { entry, pid, url, residentBytes: () => residentBytesOf(pid), exitReport, stop };
}
