// The tsup options both apps build with (apps/server and apps/worker): each entry point one ESM file in
// dist/, with the workspace packages compiled in and every third-party package left to node_modules, where
// `node` finds it beside the app (the app's own node_modules in the workspace, the folder's in the one
// `pnpm deploy:service` writes). So the build fails on an import of a package the app does not declare in
// its own dependencies, and on one the app would resolve to another copy than the workspace package that
// imports it was written against.
import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';

/** `pg` of `pg/lib/x`, `@koa/router` of `@koa/router`. */
export function packageNameOf(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

const isBuiltin = (specifier) => specifier.startsWith('node:') || builtinModules.includes(specifier);

function thirdPartyExternal(appDir) {
  const manifest = JSON.parse(readFileSync(path.join(appDir, 'package.json'), 'utf8'));
  const declared = new Set(Object.keys(manifest.dependencies ?? {}));
  return {
    name: 'third-party-external',
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, async (args) => {
        if (args.pluginData?.comparing === true) return undefined;
        if (isBuiltin(args.path)) return { external: true };
        const name = packageNameOf(args.path);
        if (name.startsWith('@topup/')) return undefined;
        const importer = path.relative(appDir, args.importer);
        if (!declared.has(name)) {
          return {
            errors: [
              {
                text: `${importer} imports ${name}, which ${manifest.name} does not list in its dependencies, so its compiled code could not find it: add ${name} there with the range the importing package uses`,
              },
            ],
          };
        }
        const options = { kind: args.kind, pluginData: { comparing: true } };
        const [asImported, asApp] = await Promise.all([
          build.resolve(args.path, { ...options, resolveDir: args.resolveDir }),
          build.resolve(args.path, { ...options, resolveDir: appDir }),
        ]);
        if (asImported.errors.length > 0) return { errors: asImported.errors };
        if (asImported.path !== asApp.path) {
          return {
            errors: [
              {
                text: `${importer} imports ${args.path} as ${asImported.path}, but ${manifest.name} resolves it to ${asApp.path}: give both the same version range`,
              },
            ],
          };
        }
        return { path: args.path, external: true };
      });
    },
  };
}

/**
 * tsup options for the app in the working directory: `entry` maps output names to source files (`server`
 * gives dist/server.mjs); `plugins` are esbuild plugins of the app's own.
 */
export function appBundleOptions({ entry, plugins = [], onSuccess }) {
  return {
    entry,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    outExtension: () => ({ js: '.mjs' }),
    removeNodeProtocol: false,
    // One file per entry point, so a deploy folder is its entry files and nothing to assemble.
    splitting: false,
    sourcemap: true,
    clean: true,
    // dist/metafile-esm.json: the third-party packages each entry imports, which `pnpm deploy:service` installs.
    metafile: true,
    // tsup leaves an app's declared dependencies external by its own rule; this plugin decides instead.
    noExternal: [/./],
    esbuildPlugins: [thirdPartyExternal(process.cwd()), ...plugins],
    onSuccess,
  };
}
