// What the console's end-to-end suite needs from the machine: Debian's Chromium and a PostgreSQL to run
// the service on. Under CI (CI set) a missing one fails the suite; elsewhere the suite is skipped and
// says why.

import { accessSync, constants } from 'node:fs';

export interface Prerequisites {
  /** The Chromium executable to drive (CHROMIUM_PATH, else Debian's /usr/bin/chromium). */
  readonly chromiumPath: string;
  /** TEST_DATABASE_URL, or "" when unset. */
  readonly databaseUrl: string;
  /** Why the suite cannot run here, one sentence each; empty when it can. */
  readonly missing: readonly string[];
  /** Whether this is CI, where nothing may be skipped. */
  readonly underCi: boolean;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function prerequisites(env: NodeJS.ProcessEnv = process.env): Prerequisites {
  const chromiumPath =
    env.CHROMIUM_PATH !== undefined && env.CHROMIUM_PATH !== '' ? env.CHROMIUM_PATH : '/usr/bin/chromium';
  const databaseUrl = env.TEST_DATABASE_URL ?? '';
  const missing: string[] = [];
  if (!executable(chromiumPath))
    missing.push(
      `Chromium was not found at ${chromiumPath}: install Debian's with \`apt-get install -y chromium\` (or set CHROMIUM_PATH); the suite never downloads a browser`,
    );
  if (databaseUrl === '')
    missing.push(
      'TEST_DATABASE_URL is not set: the suite runs the service on PostgreSQL (it expires a session with SQL), e.g. TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test',
    );
  return { chromiumPath, databaseUrl, missing, underCi: env.CI !== undefined && env.CI !== '' };
}
