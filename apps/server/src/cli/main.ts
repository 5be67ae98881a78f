#!/usr/bin/env node
// `topup`: the operator CLI. `topup <group> <action> [--options] [--json]`, e.g.
// `topup account create --name "Acme" --json`. Works on the store the service uses (DATABASE_URL, or the
// embedded store in TOPUP_DATA_DIR; PGlite is single-process, so stop `pnpm start` first there).

import { parseArgs } from 'node:util';
import { createLedger, openStore } from '@topup/ledger';
import { loadConfig, storeOptionsOf } from '../config.js';
import { exitOnConfigError } from '../exit-on-config-error.js';
import { printResult, UsageError } from './cli-output.js';
import { commands, failed } from './commands.js';

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
  migrate
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
] as const;

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
  const command = commands[name];
  if (values.help || command === undefined) {
    process.stdout.write(usage);
    return values.help ? 0 : 64;
  }
  const config = exitOnConfigError(loadConfig);
  const store = await openStore(storeOptionsOf(config));
  const ledger = createLedger(store, { timeZone: config.timeZone });
  try {
    const result = await command({
      ledger,
      store,
      options: values,
      graceSeconds: config.callbackSecretGraceSeconds,
      mode: config.mode,
    });
    printResult(result, values.json);
    return failed(name, result) ? 1 : 0;
  } finally {
    await ledger.close();
    await store.close();
  }
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (error) {
  if (error instanceof UsageError || (error instanceof TypeError && 'code' in error)) {
    process.stderr.write(`topup: ${error.message}\n\n${usage}`);
    process.exitCode = 64;
  } else {
    process.stderr.write(`topup: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  }
}
