import { describe, expect, it } from 'vitest';
import { censorCredentials, censoredValue } from './credential-censor.js';

describe('censorCredentials', () => {
  it('returns the very object it was given when that object holds no credential', () => {
    const line = {
      method: 'POST',
      path: '/v1/send_agent_float',
      status: 200,
      durationMs: 3.2,
      nested: { a: [1] },
    };
    expect(censorCredentials(line)).toBe(line);
  });

  it('censors authorization, token, secret and secrets at the top, one level down and in request headers', () => {
    const line = {
      authorization: 'Bearer tp_top',
      token: 'tp_token',
      endpoint: { secret: 'whsec_1', secrets: ['whsec_2'], url: 'https://example.test/cb' },
      req: { headers: { authorization: 'Bearer tp_header', accept: 'application/json' } },
    };
    expect(censorCredentials(line)).toEqual({
      authorization: censoredValue,
      token: censoredValue,
      endpoint: { secret: censoredValue, secrets: censoredValue, url: 'https://example.test/cb' },
      req: { headers: { authorization: censoredValue, accept: 'application/json' } },
    });
  });

  it('censors credentials inside arrays of objects', () => {
    expect(censorCredentials({ endpoints: [{ secret: 'whsec_1' }, { url: 'u' }] })).toEqual({
      endpoints: [{ secret: censoredValue }, { url: 'u' }],
    });
  });

  it('never changes the object it was given, and shares the parts that hold no credential', () => {
    const untouched = { url: 'https://example.test' };
    const line = { endpoint: { secret: 'whsec_1' }, untouched };
    const censored = censorCredentials(line);
    expect(line.endpoint.secret).toBe('whsec_1');
    expect(censored['untouched']).toBe(untouched);
  });

  it('keeps an error an error, with its message and stack, when it censors a credential on it', () => {
    const error = Object.assign(new Error('refused'), { token: 'tp_leaked', code: 'E_REFUSED' });
    const censored = censorCredentials({ err: error })['err'] as Error & { token: string; code: string };
    expect(censored).toBeInstanceOf(Error);
    expect(censored).toMatchObject({
      message: 'refused',
      stack: error.stack,
      token: censoredValue,
      code: 'E_REFUSED',
    });
    expect(error.token).toBe('tp_leaked');
  });

  it('leaves buffers and dates whole instead of walking them', () => {
    const line = { body: Buffer.from('token'), at: new Date(0) };
    expect(censorCredentials(line)).toBe(line);
  });

  it('looks three levels deep and no further, which bounds the cost of logging a large structure', () => {
    const deep = { a: { b: { token: 'x', c: { token: 'y' } } } };
    expect(censorCredentials(deep)).toEqual({ a: { b: { token: censoredValue, c: { token: 'y' } } } });
  });
});
