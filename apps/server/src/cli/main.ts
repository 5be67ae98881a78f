#!/usr/bin/env node
// `topup`: the operator CLI. `topup <group> <action> [--options] [--json]`, e.g.
// `topup account create --name "Acme" --json`. Works on the store the service uses (DATABASE_URL, or the
// embedded store in TOPUP_DATA_DIR, which is locked while `pnpm start` runs: the CLI then says so).
// With --json, a failure is a JSON object on stderr too, so a script never has to parse prose.

import { userInfo } from 'node:os';
import { parseArgs } from 'node:util';
import { createLedger, DataDirLockedError, DataDirOwnerError, openStore } from '@topup/ledger';
import { ConfigError, loadConfig, migrateService, storeOptionsOf } from '@topup/service';
import type { Store } from '@topup/ledger';
import { dropOutputOnClosedPipe, printError, printResult, UsageError } from './cli-output.js';
import { commands, failed } from './commands.js';
import { commandContext } from './command-context.js';
import { callControlSocket, controlSocketPath, RemoteCommandError } from './control-socket.js';

const usage = `Usage: topup <command> [options] [--json]

Commands:
  account create --name NAME [--mobile M] [--email E] [--agent-name N] [--agent-number N] [--store-number N] [--mode test|live]
  account list
  account suspend|resume|close --account ID
  token issue --account ID [--mode test|live]
  token revoke --token-id ID
  token list --account ID
  channel fund --account ID --channel float|airtime --amount SHILLINGS
  channel balance --account ID
  endpoint add --account ID --url URL [--format json|xml] [--description TEXT]
  endpoint list --account ID
  endpoint remove|rotate --account ID --endpoint ID
  callback resend --account ID --reference REF [--endpoint ID]
  callback deliveries --account ID [--reference REF] [--status pending|delivered|failed]
  ledger verify
  ledger unapplied [--reference REF]
  legs list --reference REF
  legs unresolved
  legs resolve --leg ID --as succeeded|failed [--by NAME]
  user create --email E --role admin|support|caller [--account ID]
  user link --email E
  user list
  funding list
  funding approve|reject --request ID
  audit list [--cursor ID]
  migrate

While \`pnpm start\` runs on the embedded store, commands are run by the service itself.
`;

const optionNames = [
  'name',
  'mobile',
  'email',
  'agent-name',
  'agent-number',
  'store-number',
  'mode',
  'account',
  'token-id',
  'channel',
  'amount',
  'url',
  'format',
  'description',
  'endpoint',
  'reference',
  'status',
  'leg',
  'as',
  'by',
  'role',
  'request',
  'cursor',
] as const;

/** The system user running the command; what an operator settles is recorded under this name. */
function operatorName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env['USER'] ?? 'unknown operator';
  }
}

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
  const name = positionals.join(' ');
  const command = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (values.help) {
    process.stdout.write(usage);
    return 0;
  }
  if (command === undefined) {
    throw new UsageError(name === '' ? 'a command is required' : `unknown command ${JSON.stringify(name)}`);
  }
  const config = loadConfig();
  const operator = operatorName();
  let store: Store;
  try {
    store = await openStore({ ...storeOptionsOf(config), migrate: false });
  } catch (error) {
    if (!(error instanceof DataDirLockedError)) throw error;
    const result = await callControlSocket(controlSocketPath(config.dataDir), {
      command: name,
      options: values,
      operator,
    }).catch((failure: unknown) => {
      // Nothing listens: the lock's holder is not a service that takes commands (another CLI, say).
      if (failure instanceof RemoteCommandError) throw failure;
      throw error;
    });
    printResult(result, values.json);
    return failed(name, result) ? 1 : 0;
  }
  const ledger = createLedger(store, { timeZone: config.timeZone });
  try {
    // Every table of the service (the console's too), as the service would; `migrate` migrates itself,
    // so that it can report what it applied.
    if (name !== 'migrate') await migrateService(store);
    const result = await command(commandContext(config, ledger, store, values, operator));
    printResult(result, values.json);
    return failed(name, result) ? 1 : 0;
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
    const code = (error as { code?: unknown } | undefined)?.code;
    printError({ kind: 'failure', message, ...(typeof code === 'string' ? { code } : {}) }, asJson);
    process.exitCode = 1;
  }
}
