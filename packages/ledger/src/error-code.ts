// The `code` an error carries, whichever layer threw it: a Node.js file-system call (`ENOENT`, `EEXIST`)
// or PostgreSQL (its SQLSTATE, as `pg` reports it). One reading, so every caller compares the same thing.

/** The error's `code` when it has a string one, else undefined. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}
