// Tokens at rest: after a run that issues, uses and revokes tokens, sends float and airtime and delivers
// callbacks, a dump of every table of the store holds no token in any form, only its SHA-256 hash.

import { createHash } from 'node:crypto';
import type { Store } from '@topup/ledger';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCallbackSink } from '../testing/callback-sink.js';
import type { CallbackSink } from '../testing/callback-sink.js';
import { eventually } from '../testing/eventually.js';
import { startTestService } from '../testing/test-service.js';
import type { TestService } from '../testing/test-service.js';
import { openTestStores } from '../testing/test-stores.js';

/** Every row of every table in the store's schema, as text. */
async function dumpTables(store: Store): Promise<Map<string, string>> {
  const { rows: tables } = await store.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables
     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`,
  );
  const dump = new Map<string, string>();
  for (const { name } of tables) {
    const { rows } = await store.query<{ row: string }>(`SELECT t::text AS row FROM "${name}" t`);
    dump.set(name, rows.map((row) => row.row).join('\n'));
  }
  return dump;
}

/** The forms a token could be stored in besides itself. */
function encodingsOf(token: string): string[] {
  const bytes = Buffer.from(token, 'utf8');
  return [
    token,
    token.slice(8),
    bytes.toString('base64'),
    bytes.toString('hex'),
    bytes.toString('base64url'),
  ];
}

describe.each(openTestStores())('tokens at rest, on $name', (stores) => {
  let store: Store;
  let service: TestService;
  let sink: CallbackSink;

  beforeAll(async () => {
    store = await stores.open();
    sink = await startCallbackSink();
    service = await startTestService(store, { worker: true });
  });

  afterAll(async () => {
    await service.stop();
    await sink.close();
    await stores.close(store);
  });

  it('keeps only SHA-256 hashes of tokens in every table', async () => {
    const { account, token } = await service.createCaller({ float: 10_000_000n });
    const { tokenId, token: revoked } = await service.ledger.issueToken(account.id, 'test');
    const { token: live } = await service.ledger.issueToken(account.id, 'live');
    const tokens = [token, revoked, live];
    await service.call('add_callback_endpoint', {
      token,
      json: { url: sink.url, format: 'json', description: 'at rest' },
    });
    for (const [name, json] of [
      ['send_agent_float', { mobile: '254712345678', amount: '100', agent_number: '1', store_number: '2' }],
      [
        'buy_airtime',
        {
          mobile: '254712345678',
          amount: '50',
          payment_network: 'MoneyNetA',
          payment_mobile: '254712345679',
        },
      ],
    ] as const) {
      const response = await service.call(name, {
        token: revoked,
        json,
        headers: { 'Idempotency-Key': `at-rest-${name}` },
      });
      expect(response.status).toBe(200);
    }
    await service.ledger.revokeToken(tokenId);
    expect((await service.call('get_balance', { token: revoked })).status).toBe(401);
    await eventually('both callbacks', () => (sink.arrived.length >= 2 ? true : undefined), 15_000);

    const dump = await dumpTables(store);
    expect([...dump.keys()]).toEqual(
      expect.arrayContaining(['api_tokens', 'idempotency_keys', 'transactions']),
    );
    for (const candidate of tokens) {
      for (const [table, text] of dump) {
        for (const encoding of encodingsOf(candidate)) {
          expect(
            text.includes(encoding),
            `${table} holds a token (as ${JSON.stringify(encoding.slice(0, 12))}…)`,
          ).toBe(false);
        }
      }
      const hash = createHash('sha256').update(candidate).digest('hex');
      expect(dump.get('api_tokens')).toContain(hash);
    }
  });
});
