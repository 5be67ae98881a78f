// Makes the operators package a vitest project of its own. Password hashing is deliberately slow (scrypt),
// so a test that hashes a few passwords on a busy 2-core machine gets a generous limit.
import { defineProject } from 'vitest/config';

export default defineProject({
  test: { name: '@topup/operators', testTimeout: 30_000, hookTimeout: 60_000 },
});
