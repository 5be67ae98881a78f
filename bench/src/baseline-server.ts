// The baseline: a bare Koa endpoint on the same Koa the service runs, reading a JSON body and answering a
// fixed envelope (the bytes of a real `send_agent_float` answer), with nothing else: no logging, no
// database. It is the framework's limit on this machine; every other case is reported as a ratio to it.
// Started as a child process by the harness (PORT, HOST).

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';

interface BaselineContext {
  readonly req: AsyncIterable<Buffer>;
  readonly path: string;
  type: string;
  body: unknown;
}

interface BaselineApp {
  use(middleware: (ctx: BaselineContext) => Promise<void>): BaselineApp;
  callback(): Parameters<typeof createServer>[1];
}

// Koa is the server's dependency: loading it through the server's package resolves the very same copy,
// so the baseline measures exactly the framework the service is built on.
const requireFromServer = createRequire(import.meta.resolve('@topup/server/testing'));
const Koa = requireFromServer('koa') as new () => BaselineApp;

const answer = readFileSync(
  new URL('../../apps/server/src/fixtures/send-agent-float-success.json.golden', import.meta.url),
  'utf8',
)
  .replace('{{reference}}', 'TXN0123456789ABCDEF')
  .replace('{{date}}', '2025-01-01 12:00:00');

async function readJson(request: AsyncIterable<Buffer>): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown;
}

const app = new Koa().use(async (ctx) => {
  if (ctx.path === '/healthz') {
    ctx.body = { status: 'ok' };
    return;
  }
  await readJson(ctx.req);
  ctx.type = 'application/json';
  ctx.body = answer;
});

const server = createServer(app.callback());
server.keepAliveTimeout = 5_000;
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1');
process.once('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
