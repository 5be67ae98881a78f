// Fails CI when PostgreSQL does not accept connections within a few seconds: the PostgreSQL suites must
// never be skipped silently under CI.
import net from 'node:net';

const url = new URL(process.argv[2] ?? '');
const port = Number(url.port || 5432);
const deadline = Date.now() + 10_000;

function tryOnce() {
  return new Promise((resolve) => {
    const socket = net.connect({ host: url.hostname, port });
    socket.setTimeout(1_000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(false));
  });
}

while (!(await tryOnce())) {
  if (Date.now() > deadline) {
    console.error(
      `PostgreSQL is not reachable at ${url.hostname}:${port}; CI requires it (TEST_DATABASE_URL).`,
    );
    process.exit(1);
  }
  await new Promise((r) => setTimeout(r, 500));
}
console.log(`PostgreSQL accepts connections at ${url.hostname}:${port}`);
