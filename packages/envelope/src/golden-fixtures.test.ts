import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { goldenCases } from './fixtures/models.js';
import { decodeJsonEnvelope, encodeJson } from './json-codec.js';
import { failure, success } from './envelope.js';
import { decodeXmlEnvelope, encodeXml } from './xml-codec.js';

function fixture(file: string): string {
  return readFileSync(new URL(`fixtures/${file}`, import.meta.url), 'utf8');
}

describe.each(goldenCases)('the $name response', ({ name, message }) => {
  it('encodes to the hand-written JSON fixture byte for byte', () => {
    expect(encodeJson(message)).toBe(fixture(`${name}.json.golden`));
  });

  it('encodes to the hand-written XML fixture byte for byte', () => {
    expect(encodeXml(message)).toBe(fixture(`${name}.xml.golden`));
  });
});

describe.each(goldenCases.filter((golden) => golden.decodable))('the $name fixture', ({ name, message }) => {
  it('decodes from the JSON fixture to the same model, fields in the same order', () => {
    const decoded = decodeJsonEnvelope(fixture(`${name}.json.golden`));
    expect(decoded).toStrictEqual(message);
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(message));
  });

  it('decodes from the XML fixture to the same model, fields in the same order', () => {
    const decoded = decodeXmlEnvelope(fixture(`${name}.xml.golden`));
    expect(decoded).toStrictEqual(message);
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(message));
  });
});

describe('the shared signing vectors', () => {
  // Bodies of ../shared/vectors/signing.json, computed independently of this project.
  it('match the JSON completion body', () => {
    const body =
      '{"status":{"type":"SUCCESS","code":"0000","message":"Airtime delivered"},"data":{"errors":[],"transaction":{"reference":"TXABC123","amount":"50"}}}';
    expect(
      encodeJson(success('Airtime delivered', { transaction: { reference: 'TXABC123', amount: '50' } })),
    ).toBe(body);
  });

  it('match the XML cancellation body', () => {
    const body =
      '<?xml version="1.0" encoding="utf-8"?><xml><status><type>FAIL</type><code>8000</code><message>Purchase Cancelled</message></status><data><errors><error>payment declined</error></errors></data></xml>';
    expect(encodeXml(failure('8000', ['payment declined'], { operation: 'buy_airtime' }))).toBe(body);
  });
});
