// `pnpm bench`: every case of issue 7 in one run on this machine, each against a service started here as a
// child process; prints the table (with each case's ratio to the bare Koa baseline) and the targets. A full
// run also writes bench/results/latest.json (and a copy named after its start) and the results section of
// docs/benchmarks.md, and fails on a missed target; `pnpm bench --smoke` runs every case once for one
// second, writes nothing, and fails only when the harness breaks (an error answer, a case that cannot run),
// never on a target, since one loaded second says nothing about performance. The live airtime case
// (`airtime-live`, live mode against the fake providers) has no target yet: it is reported, and fails a
// run only when the harness breaks.

import { parseBenchOptions } from './bench-options.js';
import type { BenchOptions } from './bench-options.js';
import {
  concurrentSendsCaseId,
  largeSendCaseId,
  runConcurrentSendsCase,
  runLargeSendCase,
} from './airtime-send-cases.js';
import { airtimeRequest, balanceRequest, baselineRequest, floatRequest } from './bench-requests.js';
import { callbackCaseId, runCallbackCase } from './callback-case.js';
import type { CaseResult } from './case-result.js';
import { liveAirtimeCaseId, liveAirtimeCaseTitle, runLiveAirtimeCase } from './live-airtime-case.js';
import { listingCaseId, listingCaseTitle, runListingCase } from './listing-case.js';
import { describeMachine } from './machine.js';
import { textNotes, textTable, textTargets, updateMarkdown, writeJsonReport } from './report.js';
import type { BenchReport } from './report.js';
import { runRequestCase } from './request-case.js';
import type { RequestCase } from './request-case.js';
import { checkTargets } from './targets.js';

const requestCases: readonly RequestCase[] = [
  {
    id: 'baseline',
    title: 'bare Koa: read a JSON body, answer a fixed envelope',
    store: 'none',
    request: baselineRequest,
  },
  {
    id: 'float-pg',
    title: 'send_agent_float, one hot account, JSON, PostgreSQL',
    store: 'postgres',
    request: (caller) => floatRequest(caller.token),
  },
  {
    id: 'airtime-json-pg',
    title: 'buy_airtime, JSON, PostgreSQL',
    store: 'postgres',
    request: (caller) => airtimeRequest(caller.token, 'json'),
  },
  {
    id: 'airtime-xml-pg',
    title: 'buy_airtime, XML, PostgreSQL',
    store: 'postgres',
    request: (caller) => airtimeRequest(caller.token, 'xml'),
  },
  {
    id: 'balance-pg',
    title: 'get_balance, PostgreSQL',
    store: 'postgres',
    request: (caller) => balanceRequest(caller.token),
  },
  {
    id: 'float-pglite',
    title: 'send_agent_float, one hot account, JSON, PGlite',
    store: 'pglite',
    request: (caller) => floatRequest(caller.token),
  },
  {
    id: 'airtime-json-pglite',
    title: 'buy_airtime, JSON, PGlite',
    store: 'pglite',
    request: (caller) => airtimeRequest(caller.token, 'json'),
  },
];

const allCaseIds = [
  ...requestCases.map((definition) => definition.id),
  callbackCaseId,
  largeSendCaseId,
  concurrentSendsCaseId,
  liveAirtimeCaseId,
  listingCaseId,
];

function selected(options: BenchOptions, id: string): boolean {
  return options.only.length === 0 || options.only.includes(id);
}

async function main(): Promise<void> {
  const options = parseBenchOptions(process.argv.slice(2), process.env);
  const unknown = options.only.filter((id) => !allCaseIds.includes(id));
  if (unknown.length > 0) {
    throw new Error(`Expected case ids among ${allCaseIds.join(', ')}, received ${unknown.join(', ')}.`);
  }
  const startedAt = new Date().toISOString();
  const machine = await describeMachine(options.databaseUrl);
  const results: CaseResult[] = [];
  for (const definition of requestCases) {
    if (!selected(options, definition.id)) continue;
    process.stdout.write(`${definition.id}: ${definition.title} …\n`);
    results.push(await runRequestCase(definition, options));
  }
  if (selected(options, callbackCaseId)) {
    process.stdout.write(`${callbackCaseId}: callback delivery …\n`);
    results.push(await runCallbackCase(options));
  }
  if (selected(options, largeSendCaseId)) {
    process.stdout.write(`${largeSendCaseId}: one caller's 1,000-recipient sends …\n`);
    results.push(await runLargeSendCase(options));
  }
  if (selected(options, concurrentSendsCaseId)) {
    process.stdout.write(`${concurrentSendsCaseId}: 20 callers' 100-recipient sends at once …\n`);
    results.push(await runConcurrentSendsCase(options));
  }
  if (selected(options, liveAirtimeCaseId)) {
    process.stdout.write(`${liveAirtimeCaseId}: ${liveAirtimeCaseTitle} …\n`);
    results.push(await runLiveAirtimeCase(options));
  }
  if (selected(options, listingCaseId)) {
    process.stdout.write(`${listingCaseId}: ${listingCaseTitle} …\n`);
    results.push(await runListingCase(options));
  }
  const targets = checkTargets(results);
  const targetHeading = options.smoke
    ? 'Targets (not judged in a smoke run: one cold second measures nothing):'
    : 'Targets:';
  const notes = textNotes(results);
  process.stdout.write(
    `\n${textTable(results)}\n${notes === '' ? '' : `\n${notes}\n`}\n${targetHeading}\n${textTargets(targets)}\n`,
  );

  const failed = results.filter((result) => result.errors > 0);
  const fullRun =
    !options.smoke &&
    options.only.length === 0 &&
    options.cpuProfileDir === undefined &&
    options.runs === 3 &&
    options.durationSeconds === 10;
  if (fullRun) {
    const report: BenchReport = {
      startedAt,
      command: 'pnpm bench',
      machine,
      settings: { ...options },
      results,
      targets,
    };
    const written = await writeJsonReport(new URL('../results/', import.meta.url), report);
    await updateMarkdown(new URL('../../docs/benchmarks.md', import.meta.url), report);
    const names = written.map((file) => `bench/results/${file.pathname.split('/').pop() ?? ''}`);
    process.stdout.write(`\nWrote ${names.join(', ')} and docs/benchmarks.md.\n`);
  }
  if (failed.length > 0) {
    process.stderr.write(
      `\nErrors in ${failed.map((result) => result.id).join(', ')}: every answer must be 2xx, every ` +
        `callback delivered and every live purchase completed.\n`,
    );
    process.exitCode = 1;
  }
  const missed = targets.filter((check) => !check.met);
  if (!options.smoke && missed.length > 0) {
    process.stderr.write(`\n${missed.length} target(s) missed; profile with --cpu-prof DIR.\n`);
    process.exitCode = 1;
  }
}

await main();
