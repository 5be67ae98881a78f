// `pnpm build`: dist/worker.mjs, the worker process in one file that plain `node` runs (`pnpm start:worker`).
import { defineConfig } from 'tsup';
import { appBundleOptions } from '../../scripts/app-bundle.mjs';

export default defineConfig(appBundleOptions({ entry: { worker: 'src/main.ts' } }));
