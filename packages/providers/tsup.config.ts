import { cpSync } from 'node:fs';
import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', 'fakes/index': 'src/fakes/index.ts' },
  format: ['esm'],
  dts: true,
  sourcemap: true,
  clean: true,
  target: 'node20',
  // Each entry whole: the fake Daraja reads its key pair beside its own module (import.meta.url), so its
  // code must not move into a shared chunk elsewhere in dist.
  splitting: false,
  onSuccess: () => {
    cpSync('src/fakes/fixtures', 'dist/fakes/fixtures', { recursive: true });
    return Promise.resolve();
  },
});
