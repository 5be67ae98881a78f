import { chmod, chown, lstat, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirOwnerError } from './data-dir-permissions.js';
import { openStore } from './store.js';

/** Every path below `root` (itself included) whose mode lets anyone but its owner in, with that mode. */
async function openToOthers(root: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (path: string): Promise<void> => {
    const status = await lstat(path);
    if ((status.mode & 0o077) !== 0) found.push(`${path} ${(status.mode & 0o777).toString(8)}`);
    if (status.isDirectory()) for (const entry of await readdir(path)) await walk(join(path, entry));
  };
  await walk(root);
  return found;
}

/** Makes every folder below `root` 0755 and every file 0666, as older versions left a data folder. */
async function openUp(root: string): Promise<void> {
  const status = await lstat(root);
  await chmod(root, status.isDirectory() ? 0o755 : 0o666);
  if (status.isDirectory()) for (const entry of await readdir(root)) await openUp(join(root, entry));
}

describe('the embedded data folder', () => {
  let parent: string;

  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'topup-data-modes-'));
  });
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('is created 0700 with everything in it owner-only, and repaired on every open when an older version left it readable', async () => {
    const dataDir = join(parent, 'store');
    const store = await openStore({ dataDir });
    await store.query('CREATE TABLE secrets (value text)');
    await store.query(`INSERT INTO secrets VALUES ('whsec_a callback signing secret')`);
    expect(await openToOthers(dataDir)).toEqual([]);
    await store.close();

    await openUp(dataDir);
    expect((await openToOthers(dataDir)).length).toBeGreaterThan(100);
    const reopened = await openStore({ dataDir });
    try {
      expect(await openToOthers(dataDir)).toEqual([]);
    } finally {
      await reopened.close();
    }
  });

  it('is refused when another user owns it, before anything in it is read or written', async () => {
    const dataDir = join(parent, 'theirs');
    await mkdir(dataDir);
    const marker = join(dataDir, 'left-alone');
    await writeFile(marker, 'x', { mode: 0o644 });
    // As root the test gives the folder away; as anyone else, root's own root folder is another user's.
    const owned = process.getuid?.() === 0 ? dataDir : '/';
    if (owned === dataDir) await chown(dataDir, 65534, 65534);
    const refused = await openStore({ dataDir: owned }).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DataDirOwnerError);
    expect((refused as Error).message).toContain(`${owned} belongs to user`);
    expect(((await lstat(marker)).mode & 0o777).toString(8)).toBe('644');
    expect(await readdir(dataDir)).toEqual(['left-alone']);
  });
});
