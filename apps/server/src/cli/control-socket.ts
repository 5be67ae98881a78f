// The CLI's way into a running one-process service. The embedded store is one process's database, locked
// while `pnpm start` runs, so the CLI cannot open it then; instead the service listens on a Unix socket in
// the data folder (readable by its owner only), and the CLI sends it the command to run on the service's
// own store. One JSON line each way.

import { chmod, unlink } from 'node:fs/promises';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { failureCode, type CommandResult } from './cli-output.js';
import type { Options } from './commands.js';

/**
 * A command to run. Who runs it is not the client's to say: the service records what it changes as its
 * own system user's, the only user who can reach the socket.
 */
export interface ControlRequest {
  readonly command: string;
  readonly options: Options;
}

type ControlAnswer =
  | { readonly ok: true; readonly result: CommandResult }
  | {
      readonly ok: false;
      readonly error: { readonly message: string; readonly code?: string; readonly usage?: boolean };
    };

/** Where a data folder's running service listens for CLI commands. */
export function controlSocketPath(dataDir: string): string {
  return join(dataDir, 'cli.sock');
}

const maxRequestBytes = 64 * 1024;

/** One line from the socket, within `limit` characters and `timeoutMs`; what follows it is not read. */
function readLine(socket: Socket, limit: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => {
      finish(new Error(`no whole control line within ${timeoutMs} ms`));
    }, timeoutMs);
    const onData = (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) finish(undefined, text.slice(0, end));
      else if (text.length > limit) finish(new Error('the control line is too long'));
    };
    const onEnd = () => {
      finish(new Error('the control connection closed before a whole line arrived'));
    };
    function finish(error: Error | undefined, line = ''): void {
      clearTimeout(timer);
      socket.off('data', onData).off('end', onEnd).off('error', finish);
      if (error === undefined) resolve(line);
      else reject(error);
    }
    socket.setEncoding('utf8');
    socket.on('data', onData).once('end', onEnd).once('error', finish);
  });
}

// A command has this long to arrive once connected, so a silent client never holds a connection open;
// an answer may take as long as the command does.
const requestTimeoutMs = 5_000;
const answerTimeoutMs = 10 * 60_000;

function stringified(answer: ControlAnswer): string {
  return JSON.stringify(answer, (_key, value: unknown) =>
    typeof value === 'bigint' ? value.toString() : value,
  );
}

/** Serves CLI commands on the socket until closed; a stale socket file from a crash is replaced. */
export async function serveControlSocket(
  path: string,
  run: (request: ControlRequest) => Promise<CommandResult>,
): Promise<{ close(): Promise<void> }> {
  await unlink(path).catch(() => undefined);
  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
    socket.on('error', () => undefined);
    void (async () => {
      let answer: ControlAnswer;
      try {
        const request = JSON.parse(
          await readLine(socket, maxRequestBytes, requestTimeoutMs),
        ) as ControlRequest;
        answer = { ok: true, result: await run(request) };
      } catch (error) {
        const code = failureCode(error);
        answer = {
          ok: false,
          error: {
            message: error instanceof Error ? error.message : String(error),
            ...(code === undefined ? {} : { code }),
            ...(error instanceof Error && error.name === 'UsageError' ? { usage: true } : {}),
          },
        };
      }
      let line: string;
      try {
        line = stringified(answer);
      } catch (error) {
        line = stringified({
          ok: false,
          error: { message: `the answer could not be sent: ${String(error)}` },
        });
      }
      socket.end(`${line}\n`);
    })();
  });
  // Only the data folder's owner may connect: the socket is created under a umask that leaves no one
  // else any access, so there is no moment at which it is open to others.
  const umask = process.umask(0o077);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } finally {
    process.umask(umask);
  }
  await chmod(path, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        for (const socket of open) socket.destroy();
      }),
  };
}

/** Raised by the running service for a command that failed there; carries the failure's code. */
export class RemoteCommandError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly usage: boolean,
  ) {
    super(message);
    this.name = 'RemoteCommandError';
  }
}

/** Runs a command in the service listening on `path`; rejects with the connection's error when none does. */
export async function callControlSocket(path: string, request: ControlRequest): Promise<CommandResult> {
  const socket = connect(path);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(`${JSON.stringify(request)}\n`);
  const answer = JSON.parse(await readLine(socket, 64 * 1024 * 1024, answerTimeoutMs)) as ControlAnswer;
  socket.destroy();
  if (answer.ok) return answer.result;
  throw new RemoteCommandError(answer.error.message, answer.error.code, answer.error.usage === true);
}
