import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { createLogger } from './logger.js';

function capture(): { lines: string[]; destination: Writable } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(
        ...chunk
          .toString('utf8')
          .split('\n')
          .filter((line) => line !== ''),
      );
      done();
    },
  });
  return { lines, destination };
}

const withoutTime = (line: string | undefined): string => (line ?? '').replace(/"time":\d+,/, '');

describe('createLogger', () => {
  it('writes no credential from a logged object or a child logger’s bindings', () => {
    const { lines, destination } = capture();
    const logger = createLogger('info', destination);
    logger
      .child({ token: 'tp_bound' })
      .info(
        { req: { headers: { authorization: 'Bearer tp_header' } }, endpoint: { secret: 'whsec_1' } },
        'request',
      );
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/tp_bound|tp_header|whsec_1/);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({
      token: '[redacted]',
      req: { headers: { authorization: '[redacted]' } },
      endpoint: { secret: '[redacted]' },
      msg: 'request',
    });
  });

  it('writes an ordinary line byte for byte as pino does without censoring', () => {
    const ours = capture();
    const plain = capture();
    const fields = {
      method: 'POST',
      path: '/v1/x',
      status: 200,
      durationMs: 1.25,
      ok: true,
      list: [1, 'a"b'],
    };
    createLogger('info', ours.destination).child({ requestId: 'req_1' }).info(fields, 'request');
    pino({ level: 'info', base: { service: 'topup' } }, plain.destination)
      .child({ requestId: 'req_1' })
      .info(fields, 'request');
    expect(withoutTime(ours.lines[0])).toBe(withoutTime(plain.lines[0]));
  });

  it('logs an error through the error serializer with its message and stack', () => {
    const { lines, destination } = capture();
    createLogger('info', destination).error(
      { err: Object.assign(new Error('boom'), { token: 'tp_x' }) },
      'failed',
    );
    const record = JSON.parse(lines[0] ?? '') as { err: { message: string; stack: string; token: string } };
    expect(record.err).toMatchObject({ message: 'boom', token: '[redacted]' });
    expect(record.err.stack).toContain('Error: boom');
  });
});
