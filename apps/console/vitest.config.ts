// Makes this app a vitest project of its own. Its unit tests cover the pure modules (API errors, filters,
// formatting, access rules) and components rendered to static markup, so they run in Node without a DOM
// and without the React plugin. The end-to-end suite (e2e/) drives the built console in Chromium against
// the real service; it sets its own generous time limits (minutes, for building, starting the service and
// the browser on two cores).
import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: '@topup/console',
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'e2e/**/*.e2e.test.ts'],
  },
});
