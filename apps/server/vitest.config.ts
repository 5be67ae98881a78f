import { defineProject } from 'vitest/config';

// Server tests start real services (PGlite's initdb alone takes seconds on two cores) and child
// processes, so they get minutes, not vitest's default seconds.
export default defineProject({ test: { name: '@topup/server', testTimeout: 60_000, hookTimeout: 60_000 } });
