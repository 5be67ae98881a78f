// Captures a service's structured log in memory: the real logger (same redaction, every level) writing
// to an array, so a test can read each line as JSON or search the raw text.

import { Writable } from 'node:stream';
import type { Logger } from 'pino';
import { createLogger } from '@topup/service';

export interface LogCapture {
  readonly logger: Logger;
  /** Every line written so far, raw. */
  readonly lines: readonly string[];
  /** Every line written so far, parsed. */
  records(): Record<string, unknown>[];
}

export function captureLogs(level = 'trace'): LogCapture {
  const lines: string[] = [];
  let partial = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const text = partial + chunk.toString('utf8');
      const complete = text.split('\n');
      partial = complete.pop() ?? '';
      lines.push(...complete.filter((line) => line !== ''));
      done();
    },
  });
  return {
    logger: createLogger(level, destination),
    lines,
    records: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
