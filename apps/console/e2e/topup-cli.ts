// The `topup` operator CLI (apps/server/src/cli/main.ts) run as a child process with the service's
// environment, as an operator runs `pnpm topup …`: here to create console users and read the one-time
// sign-in link it prints, or, for an admin once there is one, the request a console admin approves.

import { spawnTsx } from './service-process.js';
import { cliEntry } from './repo-paths.js';

export type ConsoleRole = 'admin' | 'support' | 'caller';

export interface CreatedUser {
  readonly id: string;
  readonly email: string;
  readonly role: ConsoleRole;
  readonly account: string;
  /** The one-time sign-in link, `${CONSOLE_URL}/console/link#token=…`. */
  readonly url: string;
}

/** Runs `topup <args> --json` and parses what it prints; rejects on a non-zero exit or after `timeoutMs`. */
export function runTopup(
  args: readonly string[],
  env: Readonly<Record<string, string>>,
  timeoutMs = 60_000,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawnTsx(cliEntry, [...args, '--json'], env);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`topup ${args.join(' ')} did not finish within ${timeoutMs} ms\n${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) {
        reject(new Error(`topup ${args.join(' ')} exited with ${code}:\n${stderr}${stdout}`));
        return;
      }
      try {
        resolve(JSON.parse(stdout) as unknown);
      } catch {
        reject(new Error(`topup ${args.join(' ')} printed no JSON:\n${stdout}\n${stderr}`));
      }
    });
  });
}

/** `topup user create --email E --role R [--account ID] --json`. */
export async function createUser(
  env: Readonly<Record<string, string>>,
  user: { readonly email: string; readonly role: ConsoleRole; readonly account?: string },
): Promise<CreatedUser> {
  const created = (await runTopup(
    [
      'user',
      'create',
      '--email',
      user.email,
      '--role',
      user.role,
      ...(user.account === undefined ? [] : ['--account', user.account]),
    ],
    env,
  )) as Partial<CreatedUser>;
  if (typeof created.url !== 'string' || !created.url.includes('/console/link#token='))
    throw new Error(`topup user create printed no sign-in link: ${JSON.stringify(created)}`);
  return created as CreatedUser;
}

/** `topup user create --role admin` once an admin exists: a request another admin approves in the console. */
export async function requestAdmin(env: Readonly<Record<string, string>>, email: string): Promise<string> {
  const asked = (await runTopup(['user', 'create', '--email', email, '--role', 'admin'], env)) as {
    state?: string;
    request?: { id?: string };
  };
  if (asked.state !== 'awaiting_approval' || typeof asked.request?.id !== 'string')
    throw new Error(`topup user create --role admin made no request: ${JSON.stringify(asked)}`);
  return asked.request.id;
}
