// Child processes of the release rehearsal. Each runs in its own process group so that stopping it also
// stops what it started (pnpm starts turbo, turbo starts tsup, npm starts scripts), and every group still
// running is stopped when the rehearsal itself is interrupted.
import { spawn } from 'node:child_process';

const running = new Set();

/** Kills the process group of `child` with `signal`; a group that is already gone is not an error. */
export function killGroup(child, signal = 'SIGTERM') {
  try {
    process.kill(-child.pid, signal);
  } catch (error) {
    if (error.code !== 'ESRCH') throw error;
  }
}

/** Starts `command args` in a new process group, tracked until it exits. */
export function startProcess(command, args, options) {
  const child = spawn(command, args, { ...options, detached: true });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/** Error of a command that failed, with everything it printed. */
export class CommandError extends Error {
  constructor(description, outcome, output) {
    super(`${description} ${outcome}; its output:\n${output.trimEnd()}`);
    this.name = 'CommandError';
  }
}

/**
 * Runs `command args` to completion and resolves with its combined stdout and stderr. Rejects with a
 * `CommandError` holding that output when it exits non-zero or runs longer than `timeoutMs`.
 */
export function runCommand(command, args, { cwd, env = process.env, timeoutMs = 300_000 } = {}) {
  const description = `\`${[command, ...args].join(' ')}\` in ${cwd}`;
  return new Promise((resolve, reject) => {
    const child = startProcess(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child, 'SIGKILL');
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) {
        resolve(output);
        return;
      }
      const outcome = timedOut ? `took longer than ${timeoutMs / 1000}s` : `exited with ${code ?? signal}`;
      reject(new CommandError(description, outcome, output));
    });
  });
}

// An interrupted rehearsal must not leave a registry or a build running: stop every group, then exit
// with the conventional 128 + signal number.
for (const [signal, number] of [
  ['SIGINT', 2],
  ['SIGTERM', 15],
  ['SIGHUP', 1],
]) {
  process.once(signal, () => {
    console.error(`\ninterrupted by ${signal}: stopping ${running.size} child process group(s)`);
    for (const child of running) killGroup(child, 'SIGKILL');
    process.exit(128 + number);
  });
}
process.once('exit', () => {
  for (const child of running) killGroup(child, 'SIGKILL');
});
