// `pnpm bench:startup`: how long the service takes from `node` to its first 200 on /readyz, and how much
// memory it holds once idle, run compiled (dist/*.mjs, what the start scripts run) and from the TypeScript
// source through tsx (what `pnpm dev` runs, and what the start scripts ran before), with the same start
// script flags. The two alternate within each round, and which goes first alternates between rounds, so
// neither always meets a warmer or a busier machine. Each entry point runs on a store it already migrated
// in an unmeasured first start, so initdb and migrations are not what is timed. Writes the medians into
// docs/benchmarks.md between its markers; `--rounds N` (default 9), `--idle-ms N` (default 5000).
//
// Entry points: `start:server` (the API alone) on PostgreSQL when DATABASE_URL is set, and `pnpm start`
// (server and worker in one process) on the embedded store.

import { spawn } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { postgresBenchStore } from './bench-store.js';
import { writeFormattedFile } from './formatted-file.js';
import { freePort } from './service-process.js';
import { startScriptFlags } from './start-script-flags.js';
import { median } from './statistics.js';

type Runtime = 'compiled' | 'tsx';

interface EntryPoint {
  readonly name: string;
  readonly script: readonly ['server', string];
  readonly files: Readonly<Record<Runtime, string>>;
  readonly env: Readonly<Record<string, string>>;
}

interface Sample {
  readonly readyMs: number;
  readonly rssBytes: number;
  readonly treeRssBytes: number;
}

const appFile = (relative: string) =>
  fileURLToPath(new URL(`../../apps/server/${relative}`, import.meta.url));
const tsxLoader = import.meta.resolve('tsx');
const startMarker = '<!-- startup:results:start -->';
const endMarker = '<!-- startup:results:end -->';

async function residentBytes(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? Number.NaN) * 1024;
}

/** `pid` and every process under it (tsx's esbuild service, if it runs one). */
async function processTree(pid: number): Promise<number[]> {
  const threads = await readdir(`/proc/${pid}/task`);
  const children = await Promise.all(
    threads.map(async (thread) =>
      (await readFile(`/proc/${pid}/task/${thread}/children`, 'utf8')).split(' ').filter(Boolean).map(Number),
    ),
  );
  const below = await Promise.all(children.flat().map(processTree));
  return [pid, ...below.flat()];
}

/** Starts the entry point, times it to its first 200 on /readyz, lets it idle, reads its memory, stops it. */
async function measure(entry: EntryPoint, runtime: Runtime, idleMs: number): Promise<Sample> {
  const flags = await startScriptFlags(...entry.script);
  const loader = runtime === 'tsx' ? ['--import', tsxLoader] : [];
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [...flags, ...loader, entry.files[runtime]], {
    env: { ...process.env, ...entry.env, HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4096)));
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
  try {
    let readyMs: number | undefined;
    while (readyMs === undefined) {
      if (child.exitCode !== null) throw new Error(`${entry.name} (${runtime}) exited:\n${stderr}`);
      if (performance.now() - started > 60_000)
        throw new Error(`${entry.name} (${runtime}): not ready in 60 s`);
      try {
        const response = await fetch(`http://127.0.0.1:${port}/readyz`);
        await response.arrayBuffer();
        if (response.status === 200) readyMs = performance.now() - started;
      } catch {
        // Not listening yet.
      }
      if (readyMs === undefined) await sleep(5);
    }
    await sleep(idleMs);
    const pid = child.pid as number;
    const tree = await processTree(pid);
    const sizes = await Promise.all(tree.map(residentBytes));
    return { readyMs, rssBytes: await residentBytes(pid), treeRssBytes: sizes.reduce((a, b) => a + b, 0) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '9' }, 'idle-ms': { type: 'string', default: '5000' } },
});
const rounds = Number(values.rounds);
const idleMs = Number(values['idle-ms']);
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(idleMs) || idleMs < 0) {
  throw new Error(
    `Expected --rounds ≥ 1 and --idle-ms ≥ 0, received ${values.rounds} and ${values['idle-ms']}`,
  );
}

const folder = await mkdtemp(join(tmpdir(), 'topup-startup-'));
const databaseUrl = process.env.DATABASE_URL;
const postgres =
  databaseUrl === undefined || databaseUrl === '' ? undefined : postgresBenchStore(databaseUrl);
const entries: EntryPoint[] = [
  ...(postgres === undefined
    ? []
    : [
        {
          name: '`start:server`, PostgreSQL',
          script: ['server', 'start:server'] as const,
          files: { compiled: appFile('dist/server.mjs'), tsx: appFile('src/serve.ts') },
          env: postgres.env,
        },
      ]),
  {
    name: '`start`, embedded store',
    script: ['server', 'start'],
    files: { compiled: appFile('dist/start.mjs'), tsx: appFile('src/main.ts') },
    env: { TOPUP_DATA_DIR: join(folder, 'data'), DATABASE_URL: '' },
  },
];

const startedAt = new Date().toISOString();
const load = loadavg().map((each) => each.toFixed(2));
const samples = new Map<string, Sample[]>();
try {
  for (const entry of entries) {
    // Unmeasured: migrates the store (and creates the embedded one) and fills the file cache.
    for (const runtime of ['compiled', 'tsx'] as const) await measure(entry, runtime, 0);
    for (let round = 0; round < rounds; round += 1) {
      const order: Runtime[] = round % 2 === 0 ? ['compiled', 'tsx'] : ['tsx', 'compiled'];
      for (const runtime of order) {
        const sample = await measure(entry, runtime, idleMs);
        const key = `${entry.name}|${runtime}`;
        samples.set(key, [...(samples.get(key) ?? []), sample]);
        process.stdout.write(
          `${entry.name} ${runtime}: ready in ${sample.readyMs.toFixed(0)} ms, RSS ${(sample.rssBytes / 2 ** 20).toFixed(0)} MB\n`,
        );
      }
    }
  }
} finally {
  await postgres?.remove();
  await rm(folder, { recursive: true, force: true });
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;
const rows = entries.flatMap((entry) =>
  (['compiled', 'tsx'] as const).map((runtime) => {
    const runs = samples.get(`${entry.name}|${runtime}`) ?? [];
    const ready = runs.map((each) => each.readyMs);
    return `| ${entry.name} | ${runtime === 'compiled' ? 'compiled (`node dist/…mjs`)' : 'tsx (`node --import tsx src/…ts`)'} | ${ms(median(ready))} | ${ms(Math.min(...ready))} – ${ms(Math.max(...ready))} | ${mb(median(runs.map((each) => each.rssBytes)))} | ${mb(median(runs.map((each) => each.treeRssBytes)))} |`;
  }),
);
const report = [
  `Last run: ${startedAt}, \`pnpm bench:startup --rounds ${rounds} --idle-ms ${idleMs}\`: ${rounds} rounds, medians.`,
  '',
  `Machine: ${cpus()[0]?.model.trim() ?? 'unknown'}, ${cpus().length} cores; Node.js ${process.version}. Load average at the start: ${load.join(', ')}; at the end: ${loadavg()
    .map((each) => each.toFixed(2))
    .join(', ')} (other work on the same cores slows both ways alike, since they alternate).`,
  '',
  '| entry point | run as | start to /readyz | fastest – slowest | RSS idle | RSS idle, with child processes |',
  '| --- | --- | --- | --- | --- | --- |',
  ...rows,
].join('\n');
process.stdout.write(`\n${report}\n`);

const docs = new URL('../../docs/benchmarks.md', import.meta.url);
const text = await readFile(docs, 'utf8');
const start = text.indexOf(startMarker);
const end = text.indexOf(endMarker);
if (start === -1 || end < start)
  throw new Error(`Expected docs/benchmarks.md to hold ${startMarker} … ${endMarker}`);
await writeFormattedFile(
  docs,
  `${text.slice(0, start + startMarker.length)}\n\n${report}\n\n${text.slice(end)}`,
);
process.stdout.write('\nWrote docs/benchmarks.md.\n');
