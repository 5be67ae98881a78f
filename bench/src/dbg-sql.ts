import { openStore } from '@topup/ledger';
import type { Queryable, Store } from '@topup/ledger';
import { startTestService } from '@topup/server/testing';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { floatRequest, airtimeRequest } from './bench-requests.js';
import { runLoad } from './load-run.js';

const stats = new Map<string, { n: number; ms: number }>();
function note(sql: string, ms: number) {
  const key = sql.replace(/\s+/g, ' ').slice(0, 90);
  const s = stats.get(key) ?? { n: 0, ms: 0 };
  s.n += 1; s.ms += ms; stats.set(key, s);
}
function timed(q: Queryable): Queryable {
  return {
    async query(sql, params) {
      const t = performance.now();
      try { return await q.query(sql, params); } finally { note(sql, performance.now() - t); }
    },
  } as Queryable;
}
const kind = process.env.KIND ?? 'pglite';
const inner: Store = kind === 'pglite'
  ? await openStore({ dataDir: join(await mkdtemp(join(tmpdir(), 'dbg-')), 'd') })
  : await openStore({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/test', schema: 'dbg_sql' });
const store: Store = {
  ...inner,
  kind: inner.kind,
  query: timed(inner).query,
  transaction: (fn) => { const t = performance.now(); return inner.transaction((tx) => fn(timed(tx))).finally(() => note('TX total', performance.now() - t)); },
  listen: inner.listen.bind(inner), notify: inner.notify.bind(inner), close: inner.close.bind(inner),
};
const service = await startTestService(store, { worker: true, env: { LOG_LEVEL: 'info', SIMULATOR_DELAY_MS: process.env.DELAY ?? '1500', RATE_LIMIT_PER_SECOND: '1000000', RATE_LIMIT_BURST: '1000000' } });
const { token, account } = await service.createCaller({ float: 10_000_000_000_000n });
const { startBenchCallbackReceiver } = await import('./callback-receiver.js');
const receiver = await startBenchCallbackReceiver();
if (process.env.CALLBACKS) await service.ledger.addCallbackEndpoint(account.id, { url: receiver.url, format: 'json' });
stats.clear();
const op = process.env.OP ?? 'float';
const r = await runLoad({ url: service.url, request: op === 'float' ? floatRequest(token) : airtimeRequest(token, 'json'), connections: 64, durationSeconds: Number(process.env.SECONDS ?? 8), ...(process.env.RATE ? { overallRate: Number(process.env.RATE) } : {}) });
const t0 = Date.now();
if (process.env.CALLBACKS) { await receiver.waitFor(r.succeeded, 60000); console.log('drained after', Date.now() - t0, 'ms; received', receiver.arrivals.size); }
console.log('rps', r.requestsPerSecond.toFixed(0), 'p50', r.p50Ms, 'p99', r.p99Ms, 'errors', r.errors);
const total = r.succeeded;
for (const [k, s] of [...stats].sort((a, b) => b[1].ms - a[1].ms).slice(0, 30)) console.log(s.ms.toFixed(0).padStart(7), 'ms', String(s.n).padStart(7), (s.ms / s.n).toFixed(2).padStart(7), 'ms/q', (s.ms / total * 1000).toFixed(0).padStart(6), 'us/req', k);
await service.stop();
await inner.close();
if (kind !== 'pglite') { const pg = (await import('pg')).default; const c = new pg.Client('postgres://postgres@127.0.0.1:5432/test'); await c.connect(); await c.query('DROP SCHEMA dbg_sql CASCADE'); await c.end(); }
