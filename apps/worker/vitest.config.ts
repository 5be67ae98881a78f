// Makes the worker app a vitest project of its own, so `vitest run` works here as well as from the root.
import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: '@topup/worker-app', passWithNoTests: true } });
