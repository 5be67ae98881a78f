// The console's build (apps/console/dist), which the server serves under /console: built with
// `pnpm --filter @topup/console build` when it is missing, within a time limit.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { consoleIndexHtml, repoRoot } from './repo-paths.js';

/** Builds the console unless dist/index.html exists; fails with the build's output when it cannot. */
export async function ensureConsoleBuilt(timeoutMs = 240_000): Promise<void> {
  if (existsSync(consoleIndexHtml)) return;
  const output: string[] = [];
  const code = await new Promise<number | null>((resolve, reject) => {
    const child = spawn('pnpm', ['--filter', '@topup/console', 'build'], {
      cwd: repoRoot,
      env: process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `pnpm --filter @topup/console build did not finish within ${timeoutMs} ms:\n${output.join('')}`,
        ),
      );
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new Error(
          `Could not run pnpm to build the console (${error.message}); run \`pnpm --filter @topup/console build\` first.`,
        ),
      );
    });
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  if (code !== 0 || !existsSync(consoleIndexHtml))
    throw new Error(`pnpm --filter @topup/console build failed (exit ${code}):\n${output.join('')}`);
}
