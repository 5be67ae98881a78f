import { defineProject } from 'vitest/config';

// PGlite runs initdb when a test file opens its store: the default hook limit is too tight for it.
export default defineProject({
  test: { name: '@topup/providers', hookTimeout: 60_000 },
});
