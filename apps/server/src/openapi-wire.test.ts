// The served OpenAPI document against what goes over the wire, in the two places its schemas alone do not
// reach: the XML its `xml` objects describe (answers written from the document equal the service's own,
// requests written from it are taken), and the callbacks its `webhooks` describe (each one that arrives,
// JSON or XML, fits its documented body and carries its documented headers). The document is the same on
// every store, so one store is enough.

import { decodeJsonEnvelope, decodeXmlEnvelope } from '@topup/envelope';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startCallbackSink } from './testing/callback-sink.js';
import type { ArrivedCallback, CallbackSink } from './testing/callback-sink.js';
import { eventually } from './testing/eventually.js';
import { xmlFromDocument } from './testing/openapi-xml-writer.js';
import type { OpenApiDocument } from './testing/openapi-xml-writer.js';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { resolved } from './testing/openapi-refs.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf } from './testing/wire.js';

interface Parameter {
  readonly name: string;
  readonly required: boolean;
  readonly schema: object;
}
interface Webhook {
  readonly post: {
    readonly parameters: readonly { $ref: string }[];
    readonly requestBody: { readonly content: Record<string, { schema: { $ref: string } }> };
  };
}
interface Document extends OpenApiDocument {
  readonly paths: Record<
    string,
    { post: { responses: Record<string, { content: Record<string, { schema: { $ref: string } }> }> } }
  >;
  readonly webhooks: Record<string, Webhook>;
  readonly components: OpenApiDocument['components'] & { readonly parameters: Record<string, Parameter> };
}

const [stores] = openTestStores();

function zodOf(document: Document, schema: unknown): z.ZodType {
  return z.fromJSONSchema(resolved(document, schema) as Parameters<typeof z.fromJSONSchema>[0]);
}

const schemaName = (schema: { $ref: string }) => schema.$ref.replace('#/components/schemas/', '');

describe('the OpenAPI document against the wire', () => {
  let store: Store;
  let service: TestService;
  let document: Document;
  let sink: CallbackSink;

  beforeAll(async () => {
    if (stores === undefined) throw new Error('Expected a test store.');
    store = await stores.open();
    service = await startTestService(store, { worker: true });
    document = (await (await fetch(`${service.url}/openapi.json`)).json()) as Document;
    sink = await startCallbackSink();
  });

  afterAll(async () => {
    await sink.close();
    await service.stop();
    if (stores !== undefined) await stores.close(store);
  });

  it("writes from the document's xml objects exactly the XML the service answers", async () => {
    const { token } = await service.createCaller({ float: 10_000_000n, airtime: 100_000n });
    const answerOf = async (name: string, json: unknown) => {
      const response = await service.call(name, { token, json, headers: { Accept: 'text/xml' } });
      return { name, status: String(response.status), text: await response.text() };
    };
    const float = await answerOf('send_agent_float', {
      mobile: '254722000123',
      amount: '500',
      agent_number: '123456',
      store_number: '654321',
      note: `Tom & Jerry's "float" <1>`,
    });
    const floatData: Record<string, unknown> = decodeXmlEnvelope(float.text).data;
    const { reference } = floatData.transaction as { reference: string };
    const answers = [
      float,
      await answerOf('buy_airtime', {
        mobile: '254733000123',
        amount: '50',
        payment_network: 'MoneyNetB',
        payment_mobile: '254722000456',
      }),
      await answerOf('send_airtime', {
        recipients: [
          { mobile: '254733000124', amount: '40' },
          // The sandbox refuses 0003 at once: a Cancelled entry whose errors list holds the reason.
          { mobile: '254712340003', amount: '20' },
        ],
      }),
      await answerOf('get_balance', {}),
      await answerOf('get_transaction', { reference }),
      await answerOf('list_transactions', { limit: 2 }),
      await answerOf('list_statement', { channel: 'Airtime' }),
      await answerOf('get_transaction', { reference: 'NOPE' }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([...Array<string>(7).fill('200'), '422']);
    for (const { name, status, text } of answers) {
      const documented = document.paths[`/api/${name}`]?.post.responses[status]?.content['text/xml'];
      if (documented === undefined) throw new Error(`Expected ${name} to document HTTP ${status}.`);
      const written = xmlFromDocument(document, schemaName(documented.schema), decodeXmlEnvelope(text));
      expect(written, `${name} ${status}`).toBe(text);
    }
  });

  it("takes an XML request written from the document's xml objects", async () => {
    const { token } = await service.createCaller({ airtime: 100_000n });
    const body = xmlFromDocument(document, 'SendAirtimeRequest', {
      recipients: [
        { mobile: '254733000125', amount: '40', name: 'Wanjiru & Sons' },
        { mobile: '254733000126', amount: '60' },
      ],
      note: 'staff airtime',
    });
    expect(body).toContain('<recipients><recipient><mobile>254733000125</mobile>');
    const answer = await service.call('send_airtime', {
      token,
      body,
      headers: { 'Content-Type': 'text/xml', Accept: 'application/json' },
    });
    const envelope = decodeJsonEnvelope(await answer.text());
    expect(envelope.status.code).toBe('0000');
    expect(envelope.data).toMatchObject({
      transactions: [{ recipient: { name: 'Wanjiru & Sons' } }, { amount: '60' }],
    });
  });

  it('describes every callback that arrives, in JSON and XML, with its signature headers', async () => {
    const { token } = await service.createCaller({ float: 10_000_000n, airtime: 100_000n });
    const call = (name: string, json: unknown) => service.call(name, { token, json });
    const endpoints: string[] = [];
    for (const format of ['json', 'xml']) {
      const added = await envelopeOf(
        await call('add_callback_endpoint', { url: `${sink.url}/${format}`, format }),
      );
      endpoints.push((added.data.endpoint as { id: string }).id);
    }
    const agent = { amount: '500', agent_number: '123456', store_number: '654321' };
    await call('send_agent_float', { ...agent, mobile: '254722000777' });
    // The sandbox declines a number ending in 0001: a cancellation callback with its reason.
    await call('send_agent_float', { ...agent, mobile: '254722000001' });
    await call('buy_airtime', {
      mobile: '254733000777',
      amount: '50',
      payment_network: 'MoneyNetB',
      payment_mobile: '254722000456',
    });
    await call('send_airtime', { recipients: [{ mobile: '254733000778', amount: '40' }] });
    for (const endpoint_id of endpoints) await call('send_test_callback', { endpoint_id });

    const arrived = await eventually('ten callbacks', () =>
      sink.arrived.length >= 10 ? sink.arrived : undefined,
    );
    const seen = new Set<string>();
    for (const callback of arrived) {
      const { webhook, media, envelope } = documentedCallback(callback);
      seen.add(`${webhook} ${media} ${envelope.status.code}`);
      const hook = document.webhooks[webhook];
      const body = hook?.post.requestBody.content[media];
      if (hook === undefined || body === undefined) throw new Error(`Expected ${webhook} in ${media}.`);
      expect(zodOf(document, body.schema).safeParse(envelope).error, `${webhook} ${media}`).toBeUndefined();
      if (media === 'text/xml') {
        expect(xmlFromDocument(document, schemaName(body.schema), envelope)).toBe(callback.body);
      }
      for (const { $ref } of hook.post.parameters) {
        const parameter = document.components.parameters[$ref.split('/').at(-1) ?? ''];
        if (parameter === undefined) throw new Error(`Expected ${$ref} to be documented.`);
        const value = callback.headers[parameter.name.toLowerCase()];
        expect(value, parameter.name).toBeTypeOf('string');
        expect(zodOf(document, parameter.schema).safeParse(value).error, parameter.name).toBeUndefined();
      }
    }
    expect([...seen].sort()).toEqual([
      'agent_float_callback application/json 0000',
      'agent_float_callback application/json 8000',
      'agent_float_callback text/xml 0000',
      'agent_float_callback text/xml 8000',
      'airtime_callback application/json 0000',
      'airtime_callback text/xml 0000',
      'test_callback application/json 0000',
      'test_callback text/xml 0000',
    ]);
  });
});

/** Which webhook a callback is, in which media type, and its envelope. */
function documentedCallback(callback: ArrivedCallback) {
  const media = (callback.headers['content-type'] ?? '').split(';')[0] ?? '';
  const envelope =
    media === 'text/xml' ? decodeXmlEnvelope(callback.body) : decodeJsonEnvelope(callback.body);
  const data = envelope.data as { test?: unknown; transaction?: { type: string } };
  const webhook =
    data.test !== undefined
      ? 'test_callback'
      : data.transaction?.type === 'Agent Float'
        ? 'agent_float_callback'
        : 'airtime_callback';
  return { webhook, media, envelope };
}
