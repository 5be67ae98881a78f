import { decodeXmlRequest, failure, success } from '@topup/envelope';
import type { WireFormat } from '@topup/envelope';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidParametersError } from './api-errors.js';
import { createClient } from './create-client.js';
import { rejectionOf } from './testing/rejection.js';
import { airtimeData, balanceData, sendAirtimeData } from './testing/sample-data.js';
import { envelopeReply, startScriptedServer } from './testing/scripted-server.js';
import type { ScriptedServer } from './testing/scripted-server.js';

const token = 'tk_test_0123456789abcdefghijABCDEFGHIJ';
const purchase = {
  mobile: 254733123456,
  amount: 50,
  note: 'Fish & <chips>',
  payment_network: 'MoneyNetA',
  payment_mobile: '254711222333',
  email: undefined,
} as const;

const servers: ScriptedServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** A server that answers in the format the request's Accept header asks for, like the service. */
async function negotiatingServer(envelope: Parameters<typeof envelopeReply>[0]): Promise<ScriptedServer> {
  const server = await startScriptedServer((request) => {
    const format: WireFormat = request.headers.accept === 'text/xml' ? 'xml' : 'json';
    return envelopeReply(envelope, { format, status: envelope.status.type === 'SUCCESS' ? 200 : 422 });
  });
  servers.push(server);
  return server;
}

describe('XML mode', () => {
  it('sends an XML body with Content-Type and Accept text/xml', async () => {
    const server = await negotiatingServer(success('Airtime purchase requested', airtimeData()));
    await createClient({ baseUrl: server.url, token, format: 'xml' }).buyAirtime(purchase);
    const [request] = server.requests;
    expect(request?.headers['content-type']).toBe('text/xml; charset=utf-8');
    expect(request?.headers.accept).toBe('text/xml');
    expect(request?.body).toBe(
      '<?xml version="1.0" encoding="utf-8"?><xml><mobile>254733123456</mobile><amount>50</amount>' +
        '<note>Fish &amp; &lt;chips&gt;</note><payment_network>MoneyNetA</payment_network>' +
        '<payment_mobile>254711222333</payment_mobile></xml>',
    );
    expect(decodeXmlRequest(request?.body ?? '')).toStrictEqual({
      ok: true,
      value: {
        mobile: '254733123456',
        amount: '50',
        note: 'Fish & <chips>',
        payment_network: 'MoneyNetA',
        payment_mobile: '254711222333',
      },
    });
  });

  it('returns the same typed object as JSON mode', async () => {
    const server = await negotiatingServer(success('Airtime purchase requested', airtimeData()));
    const options = { idempotencyKey: 'same-key' };
    const asJson = await createClient({ baseUrl: server.url, token }).buyAirtime(purchase, options);
    const asXml = await createClient({ baseUrl: server.url, token, format: 'xml' }).buyAirtime(
      purchase,
      options,
    );
    expect(server.requests.map((request) => request.headers.accept)).toStrictEqual([
      'application/json',
      'text/xml',
    ]);
    expect(asXml).toStrictEqual(asJson);
    expect(asXml.channel.balance).toBe('1500.00');
    expect(asXml.recipient.name).toBe('Wanjikũ "Shiro" O\'Neill');
  });

  it('reads lists back as lists', async () => {
    const server = await negotiatingServer(success('Balance found', balanceData()));
    const result = await createClient({ baseUrl: server.url, token, format: 'xml' }).getBalance();
    expect(result.channels).toStrictEqual(balanceData().channels);
  });

  it('sends sendAirtime’s recipients as one <recipient> each, read back by the server as the list', async () => {
    const server = await negotiatingServer(success('Airtime send requested', sendAirtimeData()));
    await createClient({ baseUrl: server.url, token, format: 'xml' }).sendAirtime({
      recipients: [
        { mobile: 254733123456, amount: 50, name: 'Fish & <chips>' },
        { mobile: '254712340003', amount: '20', email: undefined },
      ],
      note: 'staff airtime',
    });
    const [request] = server.requests;
    expect(request?.body).toBe(
      '<?xml version="1.0" encoding="utf-8"?><xml><recipients>' +
        '<recipient><mobile>254733123456</mobile><amount>50</amount><name>Fish &amp; &lt;chips&gt;</name></recipient>' +
        '<recipient><mobile>254712340003</mobile><amount>20</amount></recipient>' +
        '</recipients><note>staff airtime</note></xml>',
    );
    expect(decodeXmlRequest(request?.body ?? '')).toStrictEqual({
      ok: true,
      value: {
        recipients: [
          { mobile: '254733123456', amount: '50', name: 'Fish & <chips>' },
          { mobile: '254712340003', amount: '20' },
        ],
        note: 'staff airtime',
      },
    });
  });

  it('reads a send_airtime answer’s transactions back as the same list as JSON mode', async () => {
    const server = await negotiatingServer(success('Airtime send requested', sendAirtimeData()));
    const input = { recipients: [{ mobile: '254733123456', amount: 50 }] };
    const options = { idempotencyKey: 'same-key' };
    const asJson = await createClient({ baseUrl: server.url, token }).sendAirtime(input, options);
    const asXml = await createClient({ baseUrl: server.url, token, format: 'xml' }).sendAirtime(
      input,
      options,
    );
    expect(asXml).toStrictEqual(asJson);
    expect(asXml.transactions).toStrictEqual(sendAirtimeData().transactions);
  });

  it('reads a transactions list of one entry, with an empty errors list, as a list', async () => {
    const [first] = sendAirtimeData().transactions;
    const server = await negotiatingServer(
      success('Airtime send requested', { ...sendAirtimeData(), transactions: [first] }),
    );
    const result = await createClient({ baseUrl: server.url, token, format: 'xml' }).sendAirtime({
      recipients: [{ mobile: '254733123456', amount: 50 }],
    });
    expect(result.transactions).toStrictEqual([first]);
    expect(result.transactions[0]?.errors).toStrictEqual([]);
  });

  it('throws the same typed error with the errors list', async () => {
    const errors = ["'mobile is required.'", "'amount is invalid'"];
    const server = await negotiatingServer(failure('3000', errors));
    const error = await rejectionOf(createClient({ baseUrl: server.url, token, format: 'xml' }).getBalance());
    expect(error).toBeInstanceOf(InvalidParametersError);
    expect(error).toMatchObject({ httpStatus: 422, errors, message: 'Missing or Invalid Parameters' });
  });

  it('reads an XML replay in JSON mode: a replay keeps the format it was first answered in', async () => {
    const server = await startScriptedServer(() =>
      envelopeReply(success('Airtime purchase requested', airtimeData()), {
        format: 'xml',
        headers: { 'Idempotency-Replayed': 'true' },
      }),
    );
    servers.push(server);
    const result = await createClient({ baseUrl: server.url, token }).buyAirtime(purchase);
    expect(result.replayed).toBe(true);
    expect(result.transaction.reference).toBe('TXA3P8L1ZD');
  });
});
