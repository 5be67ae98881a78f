import { defineProject } from 'vitest/config';

// PGlite starts in seconds and the PostgreSQL concurrency suites push thousands of requests: the
// default 5 s limits are too tight for them.
export default defineProject({
  test: { name: '@topup/ledger', testTimeout: 60_000, hookTimeout: 120_000 },
});
