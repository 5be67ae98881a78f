// Runs Verdaccio for the release rehearsal: `node serve.mjs <config.yaml>`. It listens on 127.0.0.1 on a
// port the OS picks, so rehearsals never collide with each other or with a registry already running, and
// prints `registry-url http://127.0.0.1:<port>/` once it accepts connections (Verdaccio's own log lines
// go to the same output).
import { runServer } from 'verdaccio';

const configPath = process.argv[2];
if (configPath === undefined) {
  console.error('usage: node serve.mjs <path to a Verdaccio config.yaml>');
  process.exit(2);
}

const server = await runServer(configPath);
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  console.log(`registry-url http://127.0.0.1:${port}/`);
});
