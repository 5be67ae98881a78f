// The container's health check (the Dockerfile's HEALTHCHECK and compose.yaml's): `node healthcheck.mjs`
// asks the API server on PORT for /healthz (the process answers) and /readyz (its database, and Redis when
// REDIS_URL is set, answer); `node healthcheck.mjs worker` asks a worker on WORKER_PORT for /healthz, the
// only probe a worker has. It exits 0 when every answer is 200, else 1 with the reason on stderr.
const worker = process.argv[2] === 'worker';
const port = worker ? (process.env.WORKER_PORT ?? '8081') : (process.env.PORT ?? '8080');
const listening = process.env.HOST ?? '127.0.0.1';
// A process listening on every address is asked on loopback.
const host = ['0.0.0.0', '::'].includes(listening) ? '127.0.0.1' : listening;
const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

let healthy = true;
for (const path of worker ? ['/healthz'] : ['/healthz', '/readyz']) {
  try {
    const response = await fetch(`${origin}${path}`, { signal: AbortSignal.timeout(4_000) });
    const body = await response.text();
    if (response.status !== 200) {
      healthy = false;
      process.stderr.write(`${origin}${path} answered ${response.status}: ${body}\n`);
    }
  } catch (error) {
    healthy = false;
    process.stderr.write(`${origin}${path} did not answer: ${error.message}\n`);
  }
}
process.exit(healthy ? 0 : 1);
