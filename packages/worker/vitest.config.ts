// Makes the worker a vitest project of its own, so `vitest run` works here as well as from the root.
// Its tests drive real receivers and timers on a shared 2-core machine: a wall-clock limit of a few seconds
// fails correct runs when the machine is busy, so the limit is generous and each test bounds its own waits.
import { defineProject } from 'vitest/config';

export default defineProject({ test: { name: '@topup/worker', testTimeout: 30_000, hookTimeout: 60_000 } });
