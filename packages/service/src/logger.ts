// The structured logger (pino). Credentials never reach a log line: authorization headers, tokens and
// secrets are censored wherever they appear in a logged object.

import { pino } from 'pino';
import type { DestinationStream, Logger } from 'pino';

const redactedPaths = [
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'token',
  '*.token',
  'secret',
  '*.secret',
  'secrets',
  '*.secrets',
];

export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    redact: { paths: redactedPaths, censor: '[redacted]' },
    base: { service: 'topup' },
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
