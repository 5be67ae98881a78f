// `pnpm release:rehearse`: a release from start to finish without touching a real registry. In a scratch
// copy of the working tree it runs `pnpm release` as a release does: once to version the pending
// changesets (when there are any), then again, with a private Verdaccio on 127.0.0.1 as the registry the
// environment names, to build, check and publish every public package. Then a clean project in a temp
// folder installs the published versions with npm and a smoke script uses each package. Publishing and the
// clean install read their registry settings from temp npmrc files (`npm_config_userconfig`), so ~/.npmrc
// is neither used for them nor written. Verdaccio is stopped and the temp folder removed whatever happens.
import { execFileSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pendingChangesets } from './pending-changesets.mjs';
import { publicPackages } from './public-packages.mjs';
import { runCommand } from './rehearsal/child-processes.mjs';
import { installVerdaccio, startVerdaccio } from './rehearsal/verdaccio.mjs';
import { copyWorkingTree } from './rehearsal/working-tree.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const smokeScript = path.join(root, 'scripts', 'rehearsal', 'smoke.mjs');
const timings = [];

async function step(title, action) {
  const started = Date.now();
  process.stdout.write(`- ${title} … `);
  const detail = await action();
  const seconds = (Date.now() - started) / 1000;
  timings.push({ title, seconds });
  console.log(`done in ${seconds.toFixed(1)}s${detail ? `: ${detail}` : ''}`);
}

// Only the answer: npm warns on stderr about settings it does not know in the machine's config.
function commandOutput(command, args, cwd) {
  return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
}

function withUserConfig(file, extra = {}) {
  return { ...process.env, npm_config_userconfig: file, ...extra };
}

function assertVersioned(repo) {
  const pending = pendingChangesets(repo);
  if (pending.length > 0) {
    throw new Error(`Expected pnpm release to version every changeset, left: ${pending.join(', ')}`);
  }
  const packages = publicPackages(repo);
  const unversioned = packages.filter(({ dir }) => !existsSync(path.join(dir, 'CHANGELOG.md')));
  if (unversioned.length > 0) {
    throw new Error(
      `Expected a CHANGELOG.md in every public package; missing in ${unversioned.map(({ name }) => name).join(', ')}. A new package needs a changeset.`,
    );
  }
  return packages;
}

async function publishedManifests(url, packages) {
  const manifests = new Map();
  for (const { name, version } of packages) {
    const response = await fetch(new URL(name.replace('/', '%2f'), url));
    const manifest = response.ok ? (await response.json()).versions?.[version] : undefined;
    if (manifest === undefined) {
      throw new Error(
        `Expected ${name}@${version} on the rehearsal registry, received HTTP ${response.status}`,
      );
    }
    for (const [dependency, range] of Object.entries(manifest.dependencies ?? {})) {
      if (range.startsWith('workspace:')) {
        throw new Error(`${name}@${version} was published depending on ${dependency}@${range}`);
      }
    }
    manifests.set(name, manifest);
  }
  return manifests;
}

// The integrity npm recorded must be the one the rehearsal registry serves: the installed bytes are
// exactly what was published there, wherever npm's cache fetched them from. The changelog that
// `changeset version` wrote must have shipped too.
function assertInstalledAsPublished(consumer, packages, manifests) {
  const lock = JSON.parse(readFileSync(path.join(consumer, 'package-lock.json'), 'utf8'));
  for (const { name, version } of packages) {
    const entry = lock.packages[`node_modules/${name}`];
    const integrity = manifests.get(name).dist.integrity;
    if (entry?.version !== version || entry.integrity !== integrity) {
      throw new Error(
        `Expected ${name}@${version} with integrity ${integrity} in the clean project, received ${JSON.stringify(entry)}`,
      );
    }
    for (const file of ['CHANGELOG.md', 'LICENSE', 'README.md']) {
      if (!existsSync(path.join(consumer, 'node_modules', name, file))) {
        throw new Error(`Expected ${name}@${version} to ship ${file}, it does not`);
      }
    }
  }
}

const work = mkdtempSync(path.join(tmpdir(), 'topup-rehearsal-'));
// Also on an interrupt: child-processes.mjs exits the process, which runs exit handlers but no `finally`.
process.once('exit', () => rmSync(work, { recursive: true, force: true }));
const repo = path.join(work, 'repo');
const consumer = path.join(work, 'consumer');
let registry;
let packages = [];
let manifests;

try {
  console.log(`release rehearsal in ${work}`);
  await step('copy the working tree', () => `${copyWorkingTree(root, repo)} files`);
  await step('install in the copy (offline, from the pnpm store)', async () => {
    const store = commandOutput('pnpm', ['store', 'path'], root);
    await runCommand('pnpm', ['install', '--frozen-lockfile', '--offline', '--store-dir', store], {
      cwd: repo,
    });
  });
  await step('pnpm release, first run: version the pending changesets', async () => {
    const pending = pendingChangesets(repo).length;
    if (pending > 0) await runCommand('pnpm', ['release'], { cwd: repo });
    packages = assertVersioned(repo);
    const versions = packages.map(({ name, version }) => `${name}@${version}`).join(', ');
    return pending > 0 ? `${pending} changesets: ${versions}` : `none pending, so not run: ${versions}`;
  });
  await step('start Verdaccio', async () => {
    const installed = await installVerdaccio();
    registry = await startVerdaccio(path.join(work, 'registry'));
    return `${registry.url} (Verdaccio ${installed})`;
  });
  await step('pnpm release, second run: build, check the packs, publish to Verdaccio', async () => {
    const host = new URL(registry.url).host;
    const userConfig = path.join(work, 'publish.npmrc');
    writeFileSync(userConfig, `registry=${registry.url}\n//${host}/:_authToken=${registry.token}\n`);
    // No git tags: the copy is not a repository.
    await runCommand('pnpm', ['release', '--no-git-tag'], {
      cwd: repo,
      env: withUserConfig(userConfig, { npm_config_registry: registry.url }),
      timeoutMs: 600_000,
    });
    manifests = await publishedManifests(registry.url, packages);
  });
  await step('install by version in a clean project', async () => {
    // Our scope comes only from the rehearsal registry; third-party dependencies (zod, pg, PGlite,
    // fast-xml-parser) from the registry this machine already uses, so Verdaccio needs no uplink.
    const thirdPartyRegistry = commandOutput('npm', ['config', 'get', 'registry'], tmpdir());
    const userConfig = path.join(work, 'consumer.npmrc');
    writeFileSync(userConfig, `registry=${thirdPartyRegistry}\n@topup:registry=${registry.url}\n`);
    mkdirSync(consumer);
    writeFileSync(
      path.join(consumer, 'package.json'),
      `${JSON.stringify({ name: 'topup-rehearsal-consumer', private: true, type: 'module' }, null, 2)}\n`,
    );
    const specs = packages.map(({ name, version }) => `${name}@${version}`);
    await runCommand(
      'npm',
      ['install', '--save-exact', '--no-audit', '--no-fund', '--prefer-offline', ...specs],
      {
        cwd: consumer,
        env: withUserConfig(userConfig),
      },
    );
    assertInstalledAsPublished(consumer, packages, manifests);
    return specs.join(', ');
  });
  await step('smoke test', async () => {
    copyFileSync(smokeScript, path.join(consumer, 'smoke.mjs'));
    const output = await runCommand(process.execPath, ['smoke.mjs', ...packages.map(({ name }) => name)], {
      cwd: consumer,
      timeoutMs: 120_000,
    });
    return `\n${output.trimEnd().replace(/^/gm, '    ')}`;
  });
} catch (error) {
  console.log('FAILED');
  console.error(`\n${error.message}`);
  if (registry !== undefined) console.error(`\nVerdaccio's log:\n${registry.log() || '(empty)'}`);
  process.exitCode = 1;
} finally {
  await registry?.stop();
  rmSync(work, { recursive: true, force: true });
}

const total = timings.reduce((sum, { seconds }) => sum + seconds, 0);
console.log(
  `\n${timings.map(({ title, seconds }) => `${seconds.toFixed(1).padStart(6)}s  ${title}`).join('\n')}`,
);
console.log(`${total.toFixed(1).padStart(6)}s  total${process.exitCode ? ' (failed)' : ''}`);
