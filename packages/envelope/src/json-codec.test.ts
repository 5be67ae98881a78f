import { describe, expect, it } from 'vitest';
import { failure, success, type WireMessage } from './envelope.js';
import { EnvelopeDecodeError } from './envelope-decode-error.js';
import { decodeJsonEnvelope, encodeJson } from './json-codec.js';

const channel = (balance: unknown) => ({ type: 'Airtime', currency: 'KES', balance });
const successBody = (data: string) =>
  `{"status":{"type":"SUCCESS","code":"0000","message":"ok"},"data":${data}}`;

describe('encodeJson', () => {
  it('writes the channel balance as a number token with two decimals, never as 1500', () => {
    expect(encodeJson(success('ok', { channel: channel('1500.00') }))).toContain('"balance":1500.00}');
  });

  it('writes every balance of the channels list as a number token', () => {
    const json = encodeJson(success('ok', { channels: [channel('0.00'), channel('-12.50')] }));
    expect(json).toContain('"channels":[{"type":"Airtime","currency":"KES","balance":0.00},');
    expect(json).toContain('"balance":-12.50}]');
  });

  it('writes a balance outside a channel as an ordinary string', () => {
    expect(encodeJson(success('ok', { account: { balance: '12' } }))).toContain('"account":{"balance":"12"}');
  });

  it('writes digit strings as JSON strings and the code as a four-digit string', () => {
    const json = encodeJson(success('ok', { transaction: { amount: '0100', mobile: '254712345678' } }));
    expect(json).toContain('"code":"0000"');
    expect(json).toContain('"amount":"0100","mobile":"254712345678"');
  });

  it('escapes quotes, backslashes and control characters so the output is valid JSON', () => {
    const note = 'say "hi" \\ \n\t\u0001 ✓ 😀 \ud800';
    const json = encodeJson(success('ok', { transaction: { note } }));
    expect((JSON.parse(json) as { data: { transaction: { note: string } } }).data.transaction.note).toBe(
      note,
    );
  });

  it.each([['1500'], ['1500.5'], ['1500.001'], ['1,500.00'], ['01500.00'], ['1e3'], ['']])(
    'refuses the channel balance %j, saying what it expected',
    (balance) => {
      expect(() => encodeJson(success('ok', { channel: channel(balance) }))).toThrow(
        `Expected a balance with exactly two decimals such as "1500.00" at data.channel.balance, received the string ${JSON.stringify(balance)}.`,
      );
    },
  );

  it('refuses a balance given as a JavaScript number', () => {
    expect(() => encodeJson(success('ok', { channel: channel(1500) }))).toThrow(/received the number 1500/);
  });

  it('refuses a scalar that is not a string, naming where it sits', () => {
    expect(() => encodeJson(success('ok', { transaction: { amount: 100 } }))).toThrow(
      'Expected a string, list or object at data.transaction.amount, received the number 100.',
    );
  });

  it('refuses a list under a key that XML could not carry as a list', () => {
    expect(() => encodeJson(success('ok', { tags: ['a'] }))).toThrow(/at data\.tags, received a list/);
  });

  it('names the list entry a refused value sits in', () => {
    expect(() => encodeJson(success('ok', { channels: [channel('1.00'), channel('2')] }))).toThrow(
      'Expected a balance with exactly two decimals such as "1500.00" at data.channels[1].balance, received the string "2".',
    );
  });

  it('says a refused value sits at the top when the message itself is not an object', () => {
    expect(() => encodeJson(7 as unknown as Parameters<typeof encodeJson>[0])).toThrow(
      'Expected a string, list or object at the top, received the number 7.',
    );
  });

  it('refuses a known list key that holds no list', () => {
    expect(() => encodeJson(success('ok', { channels: 'none' }))).toThrow(
      'Expected a list at data.channels, received the string "none".',
    );
  });
});

describe('decodeJsonEnvelope', () => {
  it('restores balances to two-decimal strings, exactly, however large', () => {
    const decoded = decodeJsonEnvelope(
      successBody(
        '{"errors":[],"channels":[{"balance":1500},{"balance":1500.5},{"balance":12345678901234567.89}]}',
      ),
    );
    expect(decoded.data).toStrictEqual({
      errors: [],
      channels: [{ balance: '1500.00' }, { balance: '1500.50' }, { balance: '12345678901234567.89' }],
    });
  });

  it('reads a failure with its errors', () => {
    const body =
      '{"status":{"type":"FAIL","code":"3000","message":"Missing or Invalid Parameters"},"data":{"errors":["\'mobile is required.\'"]}}';
    expect(decodeJsonEnvelope(body)).toStrictEqual(failure('3000', ["'mobile is required.'"]));
  });

  it.each<[string, string, RegExp]>([
    ['text that is not JSON', '{"status":', /Expected a JSON envelope/],
    ['a list at the top', '[]', /an envelope object at the top, received a list/],
    ['no status', '{"data":{"errors":[]}}', /a status object at status, received nothing/],
    [
      'an unknown status type',
      '{"status":{"type":"OK","code":"0000","message":""},"data":{"errors":[]}}',
      /"SUCCESS" or "FAIL" at status.type/,
    ],
    [
      'SUCCESS with a failure code',
      '{"status":{"type":"SUCCESS","code":"3000","message":""},"data":{"errors":[]}}',
      /the code "0000" with type SUCCESS/,
    ],
    [
      'FAIL with code 0000',
      '{"status":{"type":"FAIL","code":"0000","message":""},"data":{"errors":[]}}',
      /one of the failure codes/,
    ],
    [
      'a code that is not in the table',
      '{"status":{"type":"FAIL","code":"1234","message":""},"data":{"errors":[]}}',
      /one of the failure codes/,
    ],
    [
      'a numeric code',
      '{"status":{"type":"FAIL","code":3000,"message":""},"data":{"errors":[]}}',
      /received the number 3000/,
    ],
    [
      'no message',
      '{"status":{"type":"FAIL","code":"3000"},"data":{"errors":[]}}',
      /a string at status.message/,
    ],
    [
      'no data',
      '{"status":{"type":"FAIL","code":"3000","message":""}}',
      /a data object at data, received nothing/,
    ],
    ['errors that are not a list', successBody('{"errors":"none"}'), /a list of strings at data.errors/],
    [
      'an error that is not a string',
      '{"status":{"type":"FAIL","code":"3000","message":""},"data":{"errors":[3]}}',
      /a string at data.errors\[0\], received the number 3/,
    ],
    ['a success with errors', successBody('{"errors":["x"]}'), /empty data.errors on a SUCCESS envelope/],
    [
      'a number where a string belongs',
      successBody('{"errors":[],"transaction":{"amount":100}}'),
      /at data.transaction.amount, received the number 100/,
    ],
    [
      'a string balance',
      successBody('{"errors":[],"channel":{"balance":"1.00"}}'),
      /a JSON number at data.channel.balance/,
    ],
    [
      'a balance with three places',
      successBody('{"errors":[],"channel":{"balance":1.005}}'),
      /at most two places at data.channel.balance, received the number 1.005/,
    ],
    [
      'a balance with an exponent',
      successBody('{"errors":[],"channel":{"balance":1e3}}'),
      /at most two places/,
    ],
    ['a repeated key', successBody('{"errors":[],"errors":[]}'), /each key once/],
    ['null where a string belongs', successBody('{"errors":[],"note":null}'), /at data.note, received null/],
  ])('refuses %s', (_case, text, message) => {
    expect(() => decodeJsonEnvelope(text)).toThrow(EnvelopeDecodeError);
    expect(() => decodeJsonEnvelope(text)).toThrow(message);
  });

  it('refuses nesting deeper than the response limit without exhausting the stack', () => {
    const deep = successBody(`{"errors":[],"a":${'{"a":'.repeat(100_000)}"x"${'}'.repeat(100_000)}}`);
    expect(() => decodeJsonEnvelope(deep)).toThrow(/nesting at most 32 deep/);
  });

  it('reads back what it wrote for every message shape', () => {
    const messages: WireMessage[] = [
      failure('5000', ['rate limited']),
      success('ok', { note: { text: 'x' } }),
    ];
    for (const message of messages) expect(decodeJsonEnvelope(encodeJson(message))).toStrictEqual(message);
  });
});
