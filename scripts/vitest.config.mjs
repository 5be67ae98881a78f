// `pnpm test:deploy`: the tests of the release and deploy scripts, apart from `pnpm test` because each
// builds what it tests (CI runs them as a step of their own).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['scripts/*.test.mjs'], testTimeout: 180_000, hookTimeout: 300_000 },
});
