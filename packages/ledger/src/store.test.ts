import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDirLockedError, lockFileName } from './data-dir-lock.js';
import { migrate } from './migrate.js';
import { migrations } from './migrations.js';
import { openPostgresStore } from './postgres-store.js';
import { openStore } from './store.js';
import { openTestStore, testStoreKinds, type TestStore } from './testing/stores.js';
import { waitFor } from './testing/wait.js';

const allMigrationIds = migrations.map((migration) => migration.id);

describe.each(testStoreKinds())('the store on %s', (kind) => {
  let test: TestStore;
  beforeAll(async () => {
    test = await openTestStore(kind);
  });
  afterAll(async () => {
    await test.dispose();
  });

  it('reports its kind', () => {
    expect(test.store.kind).toBe(kind);
  });

  it('has applied every migration once, and migrating again applies nothing', async () => {
    const { rows } = await test.store.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
    expect(rows.map((row) => row.id)).toEqual(allMigrationIds);
    await expect(migrate(test.store)).resolves.toEqual({ applied: [] });
  });

  it('seeds the system ledger accounts with the reserved ids', async () => {
    const { rows } = await test.store.query<{ id: string; code: string }>(
      'SELECT id, code FROM ledger_accounts WHERE account_id IS NULL ORDER BY id',
    );
    expect(rows.map((row) => `${row.id} ${row.code}`)).toEqual([
      '1 system:funding',
      '2 system:network:MoneyNetA',
      '3 system:network:MoneyNetB',
      '4 system:network:MoneyNetC',
      '5 system:network:MoneyNetD',
      '6 system:carrier:CarrierA',
      '7 system:carrier:CarrierB',
      '8 system:carrier:CarrierC',
      '9 system:payer-collections',
      '10 system:commission',
    ]);
  });

  it('hands out bigint columns as exact digit strings', async () => {
    const { rows } = await test.store.query<{ big: unknown }>('SELECT 9007199254740993::bigint AS big');
    expect(rows[0]?.big).toBe('9007199254740993');
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await test.store.query('CREATE TABLE IF NOT EXISTS store_probe (n integer)');
    await test.store.transaction((tx) => tx.query('INSERT INTO store_probe VALUES (1)'));
    await expect(
      test.store.transaction(async (tx) => {
        await tx.query('INSERT INTO store_probe VALUES (2)');
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const { rows } = await test.store.query<{ n: number }>('SELECT n FROM store_probe ORDER BY n');
    expect(rows.map((row) => row.n)).toEqual([1]);
  });

  it('delivers a notification to a listener until it unsubscribes', async () => {
    const received: string[] = [];
    const unsubscribe = await test.store.listen('probe_channel', (payload) => received.push(payload));
    await test.store.notify('probe_channel', 'first');
    await waitFor(() => received.length > 0);
    await unsubscribe();
    await test.store.notify('probe_channel', 'second');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(received).toEqual(['first']);
  });
});

describe('the embedded store in a data folder', () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'topup-ledger-store-'));
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
  });

  it('is what an empty database URL opens, as when none is given', async () => {
    const store = await openStore({ databaseUrl: '', dataDir: join(folder, 'empty-url') });
    try {
      expect(store.kind).toBe('pglite');
      const { rows } = await store.query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(rows.map((row) => row.id)).toEqual(allMigrationIds);
    } finally {
      await store.close();
    }
  });

  it('runs with 8 MB of shared buffers rather than PostgreSQL’s 128 MB, which the process would hold for good', async () => {
    const store = await openStore({ dataDir: join(folder, 'shared-buffers') });
    try {
      const { rows } = await store.query<{ shared_buffers: string }>('SHOW shared_buffers');
      expect(rows).toEqual([{ shared_buffers: '8MB' }]);
    } finally {
      await store.close();
    }
  });

  it('creates its folder and keeps its data across a close and a reopen', async () => {
    const first = await openStore({ dataDir: join(folder, 'not', 'yet', 'made') });
    await first.query(
      `INSERT INTO accounts (id, name, created_at, updated_at) VALUES ('acct_kept', 'Kept', now(), now())`,
    );
    await first.close();
    const second = await openStore({ dataDir: join(folder, 'not', 'yet', 'made') });
    const { rows } = await second.query<{ name: string }>(`SELECT name FROM accounts WHERE id = 'acct_kept'`);
    await expect(migrate(second)).resolves.toEqual({ applied: [] });
    await second.close();
    expect(rows).toEqual([{ name: 'Kept' }]);
  });

  it('refuses a second opener of the same folder while the first has it open, then lets it in', async () => {
    const dataDir = join(folder, 'locked');
    const first = await openStore({ dataDir });
    try {
      expect(await readFile(join(dataDir, lockFileName), 'utf8')).toBe(`${process.pid}\n`);
      const second = openStore({ dataDir });
      await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
      await expect(second).rejects.toThrow(
        `The embedded store in ${dataDir} is in use by process ${process.pid}`,
      );
      await expect(second).rejects.toThrow(/stop the server \(pnpm start\).*set DATABASE_URL/);
      // The refused opener must not have taken the lock away from the first.
      await expect(first.query('SELECT 1')).resolves.toBeDefined();
      expect(await readFile(join(dataDir, lockFileName), 'utf8')).toBe(`${process.pid}\n`);
    } finally {
      await first.close();
    }
    await expect(readFile(join(dataDir, lockFileName), 'utf8')).rejects.toThrow(/ENOENT/);
    const again = await openStore({ dataDir });
    await again.close();
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const dataDir = join(folder, 'stale');
    await (await openStore({ dataDir })).close();
    const child = spawn(process.execPath, ['-e', '']);
    const deadPid = await new Promise<number>((resolve) => {
      child.once('exit', () => {
        resolve(child.pid ?? 0);
      });
    });
    await writeFile(join(dataDir, lockFileName), `${deadPid}\n`);
    const store = await openStore({ dataDir });
    try {
      expect(await readFile(join(dataDir, lockFileName), 'utf8')).toBe(`${process.pid}\n`);
    } finally {
      await store.close();
    }
  });

  it('leaves the migration to the caller when asked, so the caller can report what it applied', async () => {
    const dataDir = join(folder, 'unmigrated');
    const store = await openStore({ dataDir, migrate: false });
    try {
      const { rows } = await store.query<{ present: boolean }>(
        `SELECT to_regclass('schema_migrations') IS NOT NULL AS present`,
      );
      expect(rows).toEqual([{ present: false }]);
      await expect(migrate(store)).resolves.toEqual({ applied: allMigrationIds });
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(!testStoreKinds().includes('postgres'))('migrations on PostgreSQL', () => {
  const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
  const schema = `ledger_migrate_${randomBytes(6).toString('hex')}`;

  afterAll(async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it('applies each migration exactly once when two stores migrate at the same time', async () => {
    const [first, second] = await Promise.all([
      openPostgresStore({ databaseUrl, schema, poolSize: 2 }),
      openPostgresStore({ databaseUrl, schema, poolSize: 2 }),
    ]);
    try {
      const results = await Promise.all([migrate(first), migrate(second)]);
      const applied = results.flatMap((result) => result.applied).sort();
      expect(applied).toEqual(allMigrationIds);
      expect(results.some((result) => result.applied.length === 0)).toBe(true);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(openStore({ databaseUrl, schema: 'x; DROP TABLE y' })).rejects.toThrow(
      /Expected a schema name/,
    );
  });
});

describe.skipIf(!testStoreKinds().includes('postgres'))('time limits on PostgreSQL', () => {
  const databaseUrl = process.env.TEST_DATABASE_URL ?? '';

  it('gives up a statement the database does not answer and discards its connection, so the next query runs at once', async () => {
    // One connection, a 200 ms statement limit: the client gives up a second after it.
    const store = await openPostgresStore({ databaseUrl, poolSize: 1, queryTimeoutMs: 200 });
    try {
      const started = Date.now();
      // The statement limit lifted inside the transaction stands in for a database that went silent.
      await expect(
        store.transaction(async (tx) => {
          await tx.query('SET LOCAL statement_timeout = 0');
          await tx.query('SELECT pg_sleep(5)');
        }),
      ).rejects.toThrow('Query read timeout');
      expect(Date.now() - started).toBeLessThan(2_000);
      const next = Date.now();
      await expect(store.query('SELECT 42 AS n')).resolves.toEqual({ rows: [{ n: 42 }] });
      expect(Date.now() - next).toBeLessThan(1_000);
    } finally {
      await store.close();
    }
  });
});

describe('the test store kinds', () => {
  it('include PostgreSQL under CI even without TEST_DATABASE_URL, so its suites fail instead of skipping', async () => {
    const saved = { ci: process.env.CI, url: process.env.TEST_DATABASE_URL };
    process.env.CI = 'true';
    delete process.env.TEST_DATABASE_URL;
    try {
      expect(testStoreKinds()).toEqual(['pglite', 'postgres']);
      await expect(openTestStore('postgres')).rejects.toThrow(/Expected TEST_DATABASE_URL/);
    } finally {
      if (saved.ci === undefined) delete process.env.CI;
      else process.env.CI = saved.ci;
      if (saved.url !== undefined) process.env.TEST_DATABASE_URL = saved.url;
    }
  });
});
