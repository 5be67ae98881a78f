// `pnpm build`: the server's entry points, each one file that plain `node` runs: dist/start.mjs (server and
// worker in one process, `pnpm start`), dist/server.mjs (the API alone, `pnpm start:server`) and
// dist/topup.mjs (the CLI), with the console's built files copied to dist/console beside them.
import { cpSync, existsSync } from 'node:fs';
import { defineConfig } from 'tsup';
import type { Options } from 'tsup';
import { appBundleOptions } from '../../scripts/app-bundle.mjs';

const consoleDist = '../console/dist';

// Run from source, the server reads the console from apps/console/dist; compiled, from console/ beside the
// bundle, which is where the deploy folder has it too.
const consoleBesideBundle: NonNullable<Options['esbuildPlugins']>[number] = {
  name: 'console-beside-bundle',
  setup(build) {
    build.onResolve({ filter: /\/console-build-dir\.js$/ }, () => ({
      path: 'console-build-dir',
      namespace: 'console-beside-bundle',
    }));
    build.onLoad({ filter: /.*/, namespace: 'console-beside-bundle' }, () => ({
      contents: [
        "import { fileURLToPath } from 'node:url';",
        "export const consoleBuildDir = fileURLToPath(new URL('./console/', import.meta.url));",
      ].join('\n'),
      loader: 'js',
    }));
  },
};

export default defineConfig(
  appBundleOptions({
    entry: { start: 'src/main.ts', server: 'src/serve.ts', topup: 'src/cli/main.ts' },
    plugins: [consoleBesideBundle],
    onSuccess: () => {
      if (!existsSync(`${consoleDist}/index.html`)) {
        return Promise.reject(new Error(`${consoleDist} has no index.html: build @topup/console first`));
      }
      cpSync(consoleDist, 'dist/console', { recursive: true });
      return Promise.resolve();
    },
  }),
);
