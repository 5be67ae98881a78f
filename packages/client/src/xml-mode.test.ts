import { decodeXmlRequest, failure, success } from '@topup/envelope';
import type { WireFormat } from '@topup/envelope';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidParametersError } from './api-errors.js';
import { createClient } from './create-client.js';
import { rejectionOf } from './testing/rejection.js';
import {
  airtimeData,
  balanceData,
  sendAirtimeData,
  statementData,
  transactionsData,
} from './testing/sample-data.js';
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

  it('reads a list_transactions page, each entry with its own transaction object, as JSON mode does', async () => {
    const server = await negotiatingServer(success('Transactions found', transactionsData()));
    const input = { type: 'Airtime', limit: '2' } as const;
    const asJson = await createClient({ baseUrl: server.url, token }).listTransactions(input);
    const asXml = await createClient({ baseUrl: server.url, token, format: 'xml' }).listTransactions(input);
    expect(server.requests[1]?.body).toBe(
      '<?xml version="1.0" encoding="utf-8"?><xml><type>Airtime</type><limit>2</limit></xml>',
    );
    expect(asXml).toStrictEqual(asJson);
    expect(asXml.transactions).toStrictEqual(transactionsData().transactions);
    expect(asXml.next_cursor).toBe(transactionsData().next_cursor);
  });

  it('reads a list_statement page’s postings and channel as JSON mode does', async () => {
    const server = await negotiatingServer(success('Statement found', statementData()));
    const input = { channel: 'Agent Float' } as const;
    const asJson = await createClient({ baseUrl: server.url, token }).listStatement(input);
    const asXml = await createClient({ baseUrl: server.url, token, format: 'xml' }).listStatement(input);
    expect(asXml).toStrictEqual(asJson);
    expect(asXml.postings).toStrictEqual(statementData().postings);
    expect(asXml.channel.balance).toBe('98500.00');
    expect(asXml.next_cursor).toBe('');
  });

  it('reads the callback functions’ new answers as JSON mode does: a deliveries page, a resend, a test', async () => {
    const answers = [
      success('Callback deliveries found', { deliveries: [], next_cursor: 'WyJkIiwiMSIsImNiXzEiXQ' }),
      success('Failed callbacks resent', {
        resend: { since: '2025-11-20T21:00:00.000Z', endpoint_id: 'ep_1', queued: '2', more: 'true' },
      }),
      success('Test callback sent', {
        test: {
          endpoint_id: 'ep_1',
          http_status: '',
          duration_ms: '15000',
          outcome: 'failed',
          response_excerpt: '',
          error: 'no complete answer within 15000 ms',
        },
      }),
    ] as const;
    const [deliveries, resend, test] = await Promise.all(answers.map((answer) => negotiatingServer(answer)));
    const both = async <T>(url: string, call: (client: ReturnType<typeof createClient>) => Promise<T>) => {
      const asJson = await call(createClient({ baseUrl: url, token }));
      const asXml = await call(createClient({ baseUrl: url, token, format: 'xml' }));
      expect(asXml).toStrictEqual(asJson);
      return asXml;
    };
    const page = await both(deliveries?.url ?? '', (client) =>
      client.listCallbackDeliveries({ status: 'failed', limit: 1 }),
    );
    expect(page).toMatchObject({ deliveries: [], next_cursor: 'WyJkIiwiMSIsImNiXzEiXQ' });
    expect(deliveries?.requests[1]?.body).toBe(
      '<?xml version="1.0" encoding="utf-8"?><xml><status>failed</status><limit>1</limit></xml>',
    );
    const resent = await both(resend?.url ?? '', (client) =>
      client.resendFailedCallbacks({ since: '2025-11-21', endpoint_id: 'ep_1' }),
    );
    expect(resent.resend).toStrictEqual(answers[1].data.resend);
    const tested = await both(test?.url ?? '', (client) => client.sendTestCallback({ endpoint_id: 'ep_1' }));
    expect(tested.test).toStrictEqual(answers[2].data.test);
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
