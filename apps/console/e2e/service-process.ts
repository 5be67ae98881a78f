// The service as a user runs it (`pnpm start`'s entry, apps/server/src/main.ts, through tsx), as a child
// process on a port chosen beforehand, so CONSOLE_URL can name it. It is ready once /readyz answers 200;
// stopping sends SIGTERM and, if it has not exited within a limit, SIGKILL. A child still running when
// the test process exits is killed too.

import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { eventually } from './eventually.js';
import { serverRoot, serviceEntry } from './repo-paths.js';

export interface RunningService {
  /** http://127.0.0.1:PORT */
  readonly url: string;
  /** The last part of what it printed (stdout and stderr), for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const keptOutput = 64 * 1024;

/** Spawns `node --import tsx <entry> [args]` in apps/server with `env` over this process's environment. */
export function spawnTsx(
  entry: string,
  args: readonly string[],
  env: Readonly<Record<string, string>>,
): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', entry, ...args], {
    cwd: serverRoot,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else
      child.once('exit', () => {
        resolve();
      });
  });
}

export async function startService(
  port: number,
  env: Readonly<Record<string, string>>,
  timeoutMs = 120_000,
): Promise<RunningService> {
  const url = `http://127.0.0.1:${port}`;
  const child = spawnTsx(serviceEntry, [], { ...env, HOST: '127.0.0.1', PORT: String(port) });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-keptOutput);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const exited = exitOf(child);

  const stop = async () => {
    process.removeListener('exit', killOnExit);
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => {
        resolve('late');
      }, 15_000);
    });
    if ((await Promise.race([exited.then(() => 'exited' as const), late])) === 'late') {
      child.kill('SIGKILL');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    }
    clearTimeout(timer);
  };

  try {
    await eventually(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null)
          throw new Error(`the service exited (${child.exitCode ?? child.signalCode}) before it was ready`);
        const answer = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) });
        if (answer.status !== 200) throw new Error(`/readyz answered ${answer.status}`);
      },
      { timeoutMs, intervalMs: 300, what: `the service on ${url} to be ready` },
    );
  } catch (error) {
    await stop();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\nService output:\n${output}`);
  }
  return { url, output: () => output, stop };
}
