// The body of a console call: a JSON object of at most 64 KiB (the console sends small forms).

import type { Context } from 'koa';
import { readRawBody } from '../middleware/body-decoding.js';
import { ConsoleFailure } from './console-failure.js';

const limit = 64 * 1024;

export async function jsonBody(ctx: Context): Promise<Record<string, unknown>> {
  let raw: Buffer;
  try {
    raw = await readRawBody(ctx.req, limit);
  } catch {
    throw new ConsoleFailure(400, 'invalid', `The body must be JSON of at most ${limit} bytes.`, ['body']);
  }
  if (raw.length === 0) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw.toString('utf8'));
  } catch {
    throw new ConsoleFailure(400, 'invalid', 'The body is not valid JSON.', ['body is not valid JSON']);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ConsoleFailure(400, 'invalid', 'The body must be a JSON object.', [
      'body must be a JSON object',
    ]);
  return parsed as Record<string, unknown>;
}

/** A string field of a body, or a 400 naming it. */
export function textField(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (typeof value !== 'string' || value === '')
    throw new ConsoleFailure(400, 'invalid', `${name} is required.`, [`${name} is required`]);
  return value;
}
