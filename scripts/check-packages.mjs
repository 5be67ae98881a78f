// `pnpm check:packages`: checks what each public package would publish, after `pnpm build`. Every package
// is packed with `pnpm pack` (the tool that publishes it, so `publishConfig` and `workspace:` ranges are
// applied exactly as on release), then the tarball is checked for its file list and manifest, and by
// publint and Are the Types Wrong (ESM-only profile). `attw --pack` is not used: it packs with npm, which
// ignores `publishConfig`, so it would judge the workspace's `exports` (./src/index.ts) instead.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { publicPackages } from './public-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const requiredFiles = [
  'package.json',
  'README.md',
  'LICENSE',
  'dist/index.js',
  'dist/index.d.ts',
  'dist/index.js.map',
];
const allowedFile = /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/.+)$/;
const dependencyFields = ['dependencies', 'peerDependencies', 'optionalDependencies'];

function tarballProblems(tarball, dir) {
  const files = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' })
    .split('\n')
    .filter(Boolean)
    .map((entry) => entry.replace(/^package\//, ''));
  const problems = requiredFiles
    .filter((file) => !files.includes(file))
    .map((file) => `the tarball has no ${file}; expected ${requiredFiles.join(', ')}`);
  for (const file of files.filter((entry) => !allowedFile.test(entry) || /\.test\./.test(entry))) {
    problems.push(`the tarball ships ${file}; only dist/, README.md, LICENSE and CHANGELOG.md belong there`);
  }

  const manifest = JSON.parse(execFileSync('tar', ['-xzf', tarball, '-O', 'package/package.json']));
  // `.` is dist/index; a subpath such as `./fakes` is dist/fakes/index, each built with its types.
  const entryOf = (subpath) => (subpath === '.' ? './dist/index' : `./dist/${subpath.slice(2)}/index`);
  const subpaths = Object.keys(manifest.exports ?? {});
  const expectedExports = JSON.stringify(
    Object.fromEntries(
      (subpaths.includes('.') ? subpaths : ['.', ...subpaths]).map((subpath) => [
        subpath,
        { types: `${entryOf(subpath)}.d.ts`, import: `${entryOf(subpath)}.js` },
      ]),
    ),
  );
  if (JSON.stringify(manifest.exports) !== expectedExports) {
    problems.push(`published exports are ${JSON.stringify(manifest.exports)}; expected ${expectedExports}`);
  }
  for (const subpath of subpaths.filter((entry) => entry !== '.')) {
    for (const file of [`${entryOf(subpath)}.js`, `${entryOf(subpath)}.d.ts`].map((entry) =>
      entry.slice(2),
    )) {
      if (!files.includes(file))
        problems.push(`the tarball has no ${file}, which exports['${subpath}'] names`);
    }
  }
  const expectedFields = {
    type: 'module',
    sideEffects: false,
    license: 'MIT',
    'repository.directory': `packages/${path.basename(dir)}`,
  };
  for (const [field, expected] of Object.entries(expectedFields)) {
    const actual = field.split('.').reduce((value, key) => value?.[key], manifest);
    if (actual !== expected)
      problems.push(`${field} is ${JSON.stringify(actual)}; expected ${JSON.stringify(expected)}`);
  }
  if (typeof manifest.engines?.node !== 'string') problems.push('engines.node is missing');
  for (const field of dependencyFields) {
    for (const [name, range] of Object.entries(manifest[field] ?? {})) {
      if (range.startsWith('workspace:')) problems.push(`${field}.${name} is still ${range} in the tarball`);
    }
  }
  return problems;
}

function pack(dir, destination) {
  const result = spawnSync('pnpm', ['pack', '--json', '--pack-destination', destination], {
    cwd: dir,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`pnpm pack failed:\n${`${result.stdout}${result.stderr}`.trim()}`);
  return JSON.parse(result.stdout).filename;
}

function runTool(label, command, args) {
  const result = spawnSync('pnpm', ['exec', command, ...args], { cwd: root, encoding: 'utf8' });
  const output = `${result.stdout}${result.stderr}`.trim();
  return result.status === 0 ? [] : [`${label} failed:\n${output}`];
}

const packages = publicPackages(root);
const packDir = mkdtempSync(path.join(tmpdir(), 'topup-check-packages-'));
const failures = [];
try {
  for (const { name, dir } of packages) {
    const started = Date.now();
    let problems;
    try {
      if (!existsSync(path.join(dir, 'dist', 'index.js'))) {
        throw new Error(`${path.relative(root, dir)}/dist/index.js does not exist; run pnpm build first`);
      }
      const tarball = pack(dir, packDir);
      problems = [
        ...tarballProblems(tarball, dir),
        ...runTool('publint', 'publint', ['run', tarball, '--strict']),
        ...runTool('attw', 'attw', [tarball, '--profile', 'esm-only', '--format', 'ascii']),
      ];
    } catch (error) {
      problems = [error.message];
    }
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`${problems.length === 0 ? 'ok  ' : 'FAIL'} ${name} (${seconds}s)`);
    for (const problem of problems) console.log(`     ${problem.replaceAll('\n', '\n     ')}`);
    if (problems.length > 0) failures.push(name);
  }
} finally {
  rmSync(packDir, { recursive: true, force: true });
}

if (packages.length === 0) {
  console.error('no public packages found under packages/');
  process.exit(1);
}
if (failures.length > 0) {
  console.error(`\n${failures.length} of ${packages.length} packages failed: ${failures.join(', ')}`);
  process.exit(1);
}
console.log(`\nall ${packages.length} public packages pass publint and attw (esm-only)`);
