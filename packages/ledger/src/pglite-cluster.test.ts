import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClusterApart, holdsCluster } from './pglite-cluster.js';

describe('a new embedded cluster made in a child process', () => {
  let parent: string;

  beforeAll(async () => {
    parent = await mkdtemp(join(tmpdir(), 'topup-cluster-'));
  });
  afterAll(async () => {
    await rm(parent, { recursive: true, force: true });
  });

  it('is a cluster PGlite then opens as it is, with its data kept across opens', async () => {
    const dataDir = join(parent, 'made');
    expect(await holdsCluster(dataDir)).toBe(false);
    await createClusterApart(dataDir, PGlite.defaultStartParams);
    expect(await holdsCluster(dataDir)).toBe(true);

    const first = await PGlite.create(dataDir);
    await first.query('CREATE TABLE kept (value text)');
    await first.query("INSERT INTO kept VALUES ('still here')");
    await first.close();
    const again = await PGlite.create(dataDir);
    const { rows } = await again.query<{ value: string }>('SELECT value FROM kept');
    await again.close();
    expect(rows).toEqual([{ value: 'still here' }]);
  }, 60_000);

  it('names the folder and what went wrong when initdb cannot make it', async () => {
    const blocker = join(parent, 'a-file');
    await writeFile(blocker, 'not a folder');
    await expect(createClusterApart(join(blocker, 'data'), PGlite.defaultStartParams)).rejects.toThrow(
      `Expected initdb to create an embedded cluster in ${join(blocker, 'data')}, but its process failed:`,
    );
  }, 60_000);
});
