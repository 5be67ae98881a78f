#!/usr/bin/env node
// `topup`: the operator CLI. `topup <group> <action> [--options] [--json]`, e.g.
// `topup account create --name "Acme" --json`; its commands are the operator catalog's (commands.ts).
// Works on the store the service uses (DATABASE_URL, or the embedded store in TOPUP_DATA_DIR, which is
// locked while `pnpm start` runs: the service then runs the command, as its own system user). With
// --json, a failure is a JSON object on stderr too, so a script never has to parse prose.

import { parseArgs } from 'node:util';
import { createLedger, DataDirLockedError, DataDirOwnerError, openStore } from '@topup/ledger';
import { ConfigError, loadConfig, migrateService, storeOptionsOf } from '@topup/service';
import type { Store } from '@topup/ledger';
import { dropOutputOnClosedPipe, failureCode, printError, printResult, UsageError } from './cli-output.js';
import { commandFor, optionNames, usage } from './commands.js';
import { commandContext } from './command-context.js';
import { requireStatedModeFor } from './stated-mode.js';
import { callControlSocket, controlSocketPath, RemoteCommandError } from './control-socket.js';

async function run(argv: readonly string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
      ...Object.fromEntries(optionNames.map((name) => [name, { type: 'string' as const }])),
    },
  });
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  const name = positionals.join(' ');
  const command = commandFor(name, values);
  const config = loadConfig();
  let store: Store;
  try {
    store = await openStore({ ...storeOptionsOf(config), migrate: false });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const result = await callControlSocket(controlSocketPath(config.dataDir), {
      command: name,
      options: values,
    }).catch((failure: unknown) => {
      // Nothing listens: the lock's holder is not a service that takes commands (another CLI, say).
      if (failure instanceof RemoteCommandError) throw failure;
      throw error;
    });
    printResult(result, values.json);
    return result.failed ? 1 : 0;
  }
  const ledger = createLedger(store, {
    timeZone: config.timeZone,
    chainedPurchases: config.mode === 'live',
  });
  try {
    requireStatedModeFor(name, values, process.env);
    // Every table of the service (the console's too), as the service would; `migrate` migrates itself,
    // so that it can report what it applied.
    if (name !== 'migrate') await migrateService(store);
    const result = await command.run(commandContext(config, ledger, store), values);
    printResult(result, values.json);
    return result.failed ? 1 : 0;
  } finally {
    await ledger.close();
    await store.close();
  }
}

const argv = process.argv.slice(2);
// What the CLI creates in the embedded store's folder, opening it itself, is its user's alone.
process.umask(0o077);
dropOutputOnClosedPipe();
try {
  process.exitCode = await run(argv);
} catch (error) {
  // Decided before parsing, which may itself be what failed.
  const asJson = argv.includes('--json');
  if (
    error instanceof UsageError ||
    (error instanceof RemoteCommandError && error.usage) ||
    (error instanceof TypeError && 'code' in error)
  ) {
    printError({ kind: 'usage', message: error.message }, asJson, usage);
    process.exitCode = 64;
  } else if (error instanceof ConfigError) {
    printError({ kind: 'configuration', message: error.message, problems: error.problems }, asJson);
    process.exitCode = 78;
  } else if (error instanceof DataDirOwnerError) {
    printError({ kind: 'configuration', message: error.message }, asJson);
    process.exitCode = 78;
  } else if (error instanceof DataDirLockedError) {
    // EX_TEMPFAIL: the same command succeeds once the server has stopped.
    printError({ kind: 'store-locked', message: error.message }, asJson);
    process.exitCode = 75;
  } else {
    const message = error instanceof Error ? error.message : String(error);
    const code = failureCode(error);
    printError({ kind: 'failure', message, ...(code === undefined ? {} : { code }) }, asJson);
    process.exitCode = 1;
  }
}
