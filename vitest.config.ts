import { defineConfig } from 'vitest/config';

// Under CI a JSON report is written too, so .ci/run can print a plain "N passed, N failed" line.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results.json' }]] : ['default'],
  },
});
