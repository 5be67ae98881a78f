// `pnpm release [changeset publish options]`: a release in two runs, as changesets' own GitHub action does
// it. With changesets pending, it versions the public packages (`changeset version`: the bumps and the
// CHANGELOG.md entries) and stops, so the result is reviewed and committed first. With none pending, it
// builds, checks what each public package would publish (`scripts/check-packages.mjs`: pnpm pack, publint,
// attw), and publishes every package whose version the registry does not have yet (`changeset publish`,
// which packs each with pnpm, so `workspace:` ranges become versions, and tags it in git).
//
// The registry is the one the environment names: npm's `npm_config_registry`, else npm's configuration
// (an .npmrc), else registry.npmjs.org; credentials come from the same place. `pnpm release:rehearse` runs
// this very script, both runs, in a copy of the working tree against a throwaway Verdaccio.
import { execFileSync, spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { pendingChangesets } from './pending-changesets.mjs';
import { publicPackages } from './public-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`\n\`${[command, ...args].join(' ')}\` failed; nothing more was done.`);
    process.exit(result.status ?? 1);
  }
}

const pending = pendingChangesets(root);
if (pending.length > 0) {
  run('pnpm', ['exec', 'changeset', 'version']);
  const versions = publicPackages(root).map(({ name, version }) => `${name}@${version}`);
  console.log(
    `\nVersioned ${pending.length} changesets: ${versions.join(', ')}.\n` +
      'Review the versions and the CHANGELOG.md files, commit them, and run `pnpm release` again to publish.',
  );
  process.exit(0);
}

const registry = execFileSync('npm', ['config', 'get', 'registry'], {
  cwd: root,
  encoding: 'utf8',
  stdio: ['ignore', 'pipe', 'ignore'],
}).trim();
const versions = publicPackages(root).map(({ name, version }) => `${name}@${version}`);
console.log(`Releasing to ${registry} whichever of these it does not have yet: ${versions.join(', ')}.`);
run('pnpm', ['build']);
run(process.execPath, [path.join(root, 'scripts', 'check-packages.mjs')]);
run('pnpm', ['exec', 'changeset', 'publish', ...process.argv.slice(2)]);
