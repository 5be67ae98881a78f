// `pnpm deploy:service DIR`: writes a folder that runs the service on a machine with Node.js and nothing
// else (no pnpm, no workspace, no network): the compiled entry points (server.mjs, worker.mjs, start.mjs,
// topup.mjs), the console's built files, and a node_modules holding the third-party packages those entry
// points import, with their own dependencies, and nothing else: no dev dependency, no workspace package
// (they are compiled in). The packages are copied from this workspace's installed ones, which the
// lockfile pinned, so making the folder needs no network either. The folder's node_modules is flat, with
// no symbolic links, so it survives any copy (a Docker COPY, an archive, rsync).
//
// The example Dockerfile, compose.yaml and health check under deploy/ are copied in too, so the folder is
// also a Docker build context.
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageNameOf } from './app-bundle.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const apps = [
  { name: '@topup/server', dir: path.join(root, 'apps', 'server'), entries: ['start', 'server', 'topup'] },
  { name: '@topup/worker-app', dir: path.join(root, 'apps', 'worker'), entries: ['worker'] },
];
const deployFiles = ['Dockerfile', 'compose.yaml', 'healthcheck.mjs'];
const nodeFlags = '--max-old-space-size=256';
// The API server alone on PostgreSQL gets a larger young generation: see the README ("start scripts").
const serverFlags = `${nodeFlags} --max-semi-space-size=32`;
// The embedded service keeps one helper thread for V8: see the README ("start scripts").
const embeddedFlags = `${nodeFlags} --v8-pool-size=1`;

function usage(message) {
  process.stderr.write(`${message}\nusage: pnpm deploy:service DIR (a new or empty folder)\n`);
  process.exit(64);
}

const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));
const isBuiltin = (specifier) => specifier.startsWith('node:');

/** The third-party packages an app's compiled entry points import, from the build's metafile. */
function externalsOf(app) {
  const metafile = readJson(path.join(app.dir, 'dist', 'metafile-esm.json'));
  const names = new Set();
  for (const output of Object.values(metafile.outputs)) {
    for (const { path: specifier, external } of output.imports) {
      if (external === true && !isBuiltin(specifier)) names.add(packageNameOf(specifier));
    }
  }
  return names;
}

/** Where `name` is installed for code in `fromDir`, as pnpm's store holds it (a real folder). */
function installedDir(fromDir, name) {
  const link = path.join(fromDir, 'node_modules', name);
  if (!existsSync(link)) return undefined;
  const real = realpathSync(link);
  if (!real.includes(`${path.sep}node_modules${path.sep}.pnpm${path.sep}`)) {
    throw new Error(`Expected ${name} under node_modules/.pnpm (pnpm's layout), found it at ${real}`);
  }
  return real;
}

/**
 * The dependencies pnpm linked for the package at `real`: in pnpm's layout they are its siblings in the
 * node_modules folder of its store entry. Optional and peer dependencies count when they were installed.
 */
function dependenciesOf(real) {
  const manifest = readJson(path.join(real, 'package.json'));
  const entryModules = path.join(real, ...manifest.name.split('/').map(() => '..'));
  const names = new Set([
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
  ]);
  return [...names].flatMap((name) => {
    const dependency = path.join(entryModules, name);
    if (existsSync(dependency)) return [{ name, real: realpathSync(dependency) }];
    if (name in (manifest.dependencies ?? {})) {
      throw new Error(`Expected ${manifest.name}'s dependency ${name} beside it in ${entryModules}`);
    }
    return [];
  });
}

/** The folder that holds the node_modules a package at `location` looks in after its own. */
function parentLocation(location) {
  return location.slice(0, location.lastIndexOf(`${path.sep}node_modules${path.sep}`));
}

/**
 * Lays out `externals` (name → real folder) and everything they depend on under `dir/node_modules` as
 * Node.js resolves it: a package goes to the top unless another copy of its name is already on the way
 * up from the package that needs it; then it goes into that package's own node_modules, where it shadows
 * nothing another package already resolved. Returns the number of packages copied.
 */
function installPackages(dir, externals) {
  const placed = new Map();
  const queue = [];
  const place = (slot, real) => {
    placed.set(slot, real);
    cpSync(real, slot, { recursive: true, dereference: true });
    queue.push(slot);
  };
  for (const [name, real] of externals) place(path.join(dir, 'node_modules', name), real);
  while (queue.length > 0) {
    const location = queue.shift();
    for (const { name, real } of dependenciesOf(placed.get(location))) {
      let free;
      let found = false;
      let conflict = false;
      for (let at = location; ; at = parentLocation(at)) {
        const slot = path.join(at, 'node_modules', name);
        const there = placed.get(slot);
        if (there === real) {
          found = true;
          break;
        }
        if (there !== undefined) {
          conflict = true;
          break;
        }
        free = slot;
        if (at === dir) break;
      }
      if (found) continue;
      place(conflict ? path.join(location, 'node_modules', name) : free, real);
    }
  }
  return placed.size;
}

/** Loads every package in `names` from `dir`, as the entry points there will: a missing one fails here. */
function checkLoads(dir, names) {
  const imports = [...names].map((name) => `await import(${JSON.stringify(name)});`).join('\n');
  execFileSync(process.execPath, ['--input-type=module', '--eval', imports], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

const target = process.argv[2];
if (target === undefined || process.argv.length > 3) usage('Expected one argument, the folder to write.');
const dir = path.resolve(process.env.INIT_CWD ?? process.cwd(), target);
if (existsSync(dir) && readdirSync(dir).length > 0) usage(`${dir} is not empty.`);

// The apps and the console they serve; turbo's cache makes this quick when nothing changed.
execFileSync(
  'pnpm',
  [
    'exec',
    'turbo',
    'run',
    'build',
    ...apps.map((app) => `--filter=${app.name}`),
    '--output-logs=errors-only',
  ],
  { cwd: root, stdio: 'inherit' },
);

mkdirSync(dir, { recursive: true });
const externals = new Map();
for (const app of apps) {
  for (const entry of app.entries) {
    for (const file of [`${entry}.mjs`, `${entry}.mjs.map`]) {
      cpSync(path.join(app.dir, 'dist', file), path.join(dir, file), { preserveTimestamps: true });
    }
  }
  for (const name of externalsOf(app)) {
    const real = installedDir(app.dir, name);
    if (real === undefined) throw new Error(`Expected ${app.name} to have ${name} installed`);
    if (externals.has(name) && externals.get(name) !== real) {
      throw new Error(`The apps import different copies of ${name}: ${externals.get(name)} and ${real}`);
    }
    externals.set(name, real);
  }
}
cpSync(path.join(root, 'apps', 'server', 'dist', 'console'), path.join(dir, 'console'), { recursive: true });
for (const file of deployFiles) cpSync(path.join(root, 'deploy', file), path.join(dir, file));

const copied = installPackages(dir, externals);
const dependencies = Object.fromEntries(
  [...externals]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, real]) => [name, readJson(path.join(real, 'package.json')).version]),
);
const manifest = {
  name: 'topup-service',
  private: true,
  description: 'The Topup service, compiled: run `node server.mjs`, `node worker.mjs`, or `node start.mjs`.',
  type: 'module',
  engines: readJson(path.join(root, 'package.json')).engines,
  scripts: {
    start: `node ${embeddedFlags} start.mjs`,
    'start:server': `node ${serverFlags} server.mjs`,
    'start:worker': `node ${nodeFlags} worker.mjs`,
    topup: 'node topup.mjs',
  },
  dependencies,
};
writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
checkLoads(dir, externals.keys());

console.log(
  `Wrote ${dir}: server.mjs, worker.mjs, start.mjs, topup.mjs, console/, and node_modules with ` +
    `${copied} packages (${Object.keys(dependencies).join(', ')} and their dependencies).`,
);
