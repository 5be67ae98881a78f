import { decodeJsonEnvelope } from '@topup/envelope';
import { describe, expect, it } from 'vitest';
import { callbackAnswer } from './callback-answer.js';

const status = '<status><type>SUCCESS</type><code>0000</code><message>Callback processed</message></status>';

describe('callbackAnswer', () => {
  it('answers JSON by default, with no data object', () => {
    const answer = callbackAnswer(undefined);
    expect(answer).toStrictEqual({
      status: 200,
      contentType: 'application/json; charset=utf-8',
      body: '{"status":{"type":"SUCCESS","code":"0000","message":"Callback processed"}}',
    });
    expect(() => decodeJsonEnvelope(answer.body)).toThrow(/data/);
  });

  it('answers the callback’s Accept: application/json in JSON', () => {
    expect(callbackAnswer('application/json').contentType).toBe('application/json; charset=utf-8');
  });

  it('answers XML when Accept asks for it', () => {
    expect(callbackAnswer('text/xml')).toStrictEqual({
      status: 200,
      contentType: 'text/xml; charset=utf-8',
      body: `<?xml version="1.0" encoding="utf-8"?><xml>${status}</xml>`,
    });
  });

  it('answers XML under the media type Accept names, application/xml included', () => {
    expect(callbackAnswer('application/xml')).toStrictEqual({
      status: 200,
      contentType: 'application/xml; charset=utf-8',
      body: `<?xml version="1.0" encoding="utf-8"?><xml>${status}</xml>`,
    });
  });

  it('treats an empty Accept, as Koa reports a missing one, as JSON', () => {
    expect(callbackAnswer('').contentType).toBe('application/json; charset=utf-8');
    expect(callbackAnswer(null).contentType).toBe('application/json; charset=utf-8');
  });
});
