// A free TCP port on 127.0.0.1, found by binding port 0 and letting it go, so that the service's port
// (and with it CONSOLE_URL, where the CLI's sign-in links point) is known before the service starts.

import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return port;
}
