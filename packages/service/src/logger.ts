// The structured logger (pino). Credentials never reach a log line: authorization headers, tokens and
// secrets are censored wherever they appear in a logged object or a child logger's bindings
// (credential-censor.ts).

import { isMainThread } from 'node:worker_threads';
import { pino } from 'pino';
import type { Bindings, ChildLoggerOptions, DestinationStream, Logger } from 'pino';
import { censorCredentials } from './credential-censor.js';

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    formatters: { log: censorCredentials },
    base: { service: 'topup' },
  };
  const logger = pino(options, destination ?? standardOutput());
  // Pino formats a child's bindings with no formatter of ours, so they are censored on the way in. Every
  // child is made from its parent's prototype, so grandchildren inherit this `child` too.
  const pinoChild = Reflect.get(Object.getPrototypeOf(logger) as object, 'child') as Logger['child'];
  logger.child = function <Levels extends string = never>(
    this: Logger,
    bindings: Bindings,
    childOptions?: ChildLoggerOptions<Levels>,
  ): Logger<Levels> {
    return pinoChild.call<Logger, [Bindings, ChildLoggerOptions<Levels>?], Logger<Levels>>(
      this,
      censorCredentials(bindings),
      childOptions,
    );
  };
  return logger;
}

/**
 * Standard output, written asynchronously: lines that arrive while a write is under way go out together in
 * the next one, where pino's default makes a system call per line, which on a busy server was a few per
 * cent of its CPU. Nothing is held back when the server is quiet, and pino writes what is left when the
 * process exits. In a worker thread, whose exit pino cannot wait for, lines are written as they come.
 */
function standardOutput(): DestinationStream {
  return pino.destination({ dest: 1, sync: !isMainThread });
}
