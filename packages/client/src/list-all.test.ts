import { failure, success, successMessages } from '@topup/envelope';
import type { ListedTransaction, StatementPosting } from '@topup/envelope';
import { afterEach, describe, expect, it } from 'vitest';
import { InvalidParametersError } from './api-errors.js';
import { createClient } from './create-client.js';
import { agentFloatData, airtimeData, statementData, transactionsData } from './testing/sample-data.js';
import { rejectionOf } from './testing/rejection.js';
import { envelopeReply, inTurn, startScriptedServer } from './testing/scripted-server.js';
import type { ScriptedServer } from './testing/scripted-server.js';

const token = 'tk_test_0123456789abcdefghijABCDEFGHIJ';
let server: ScriptedServer | undefined;

afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A page of one transaction, `reference`, pointing at `next`. */
function transactionPage(reference: string, next: string) {
  const { transaction, recipient } = agentFloatData(reference);
  return envelopeReply(
    success(successMessages.transactionsFound, {
      transactions: [{ transaction, recipient }],
      next_cursor: next,
    }),
  );
}

async function collected<T>(entries: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const entry of entries) all.push(entry);
  return all;
}

const references = (entries: readonly ListedTransaction[]) =>
  entries.map((entry) => entry.transaction.reference);

describe('listAllTransactions', () => {
  it('follows next_cursor with the same filters until it is empty, in the order listed', async () => {
    server = await startScriptedServer(
      inTurn(
        transactionPage('TX3', 'cursor-2'),
        transactionPage('TX2', 'cursor-1'),
        transactionPage('TX1', ''),
      ),
    );
    const topup = createClient({ baseUrl: server.url, token });
    const all = await collected(topup.listAllTransactions({ state: 'completed', limit: 1 }));
    expect(references(all)).toStrictEqual(['TX3', 'TX2', 'TX1']);
    expect(server.requests.map((request) => [request.path, request.body])).toStrictEqual([
      ['/api/list_transactions', '{"state":"completed","limit":1}'],
      ['/api/list_transactions', '{"state":"completed","limit":1,"cursor":"cursor-2"}'],
      ['/api/list_transactions', '{"state":"completed","limit":1,"cursor":"cursor-1"}'],
    ]);
  });

  it('fetches no further page once the reader stops', async () => {
    server = await startScriptedServer(() =>
      envelopeReply(success(successMessages.transactionsFound, transactionsData())),
    );
    const topup = createClient({ baseUrl: server.url, token });
    for await (const entry of topup.listAllTransactions()) {
      expect(entry.transaction.reference).toBe(airtimeData().transaction.reference);
      break;
    }
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]?.body).toBe('{}');
  });

  it('starts from a given cursor', async () => {
    server = await startScriptedServer(inTurn(transactionPage('TX1', '')));
    const topup = createClient({ baseUrl: server.url, token });
    expect(references(await collected(topup.listAllTransactions({ cursor: 'cursor-1' })))).toStrictEqual([
      'TX1',
    ]);
    expect(server.requests[0]?.body).toBe('{"cursor":"cursor-1"}');
  });

  it('rejects the iteration with the typed error of a page that fails, after the entries before it', async () => {
    server = await startScriptedServer(
      inTurn(
        transactionPage('TX2', 'cursor-1'),
        envelopeReply(failure('3000', ["'cursor is invalid'"]), { status: 422 }),
      ),
    );
    const topup = createClient({ baseUrl: server.url, token });
    const read: ListedTransaction[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const entry of topup.listAllTransactions()) read.push(entry);
      })(),
    );
    expect(references(read)).toStrictEqual(['TX2']);
    expect(error).toBeInstanceOf(InvalidParametersError);
    expect((error as InvalidParametersError).errors).toStrictEqual(["'cursor is invalid'"]);
  });

  it('refuses a page that answers with the cursor that asked for it, which would never end', async () => {
    server = await startScriptedServer(
      inTurn(transactionPage('TX2', 'cursor-1'), transactionPage('TX1', 'cursor-1')),
    );
    const topup = createClient({ baseUrl: server.url, token });
    const error = await rejectionOf(collected(topup.listAllTransactions()));
    expect(String(error)).toContain('received the same one again: cursor-1');
    expect(server.requests).toHaveLength(2);
  });
});

describe('listAllStatement', () => {
  it("reads a channel's postings across pages with the channel and dates on every page", async () => {
    const last = statementData();
    const [newest, oldest] = last.postings as [StatementPosting, StatementPosting];
    server = await startScriptedServer(
      inTurn(
        envelopeReply(
          success(successMessages.statementFound, { ...last, postings: [newest], next_cursor: 'cursor-1' }),
        ),
        envelopeReply(success(successMessages.statementFound, { ...last, postings: [oldest] })),
      ),
    );
    const topup = createClient({ baseUrl: server.url, token, format: 'xml' });
    const postings = await collected(topup.listAllStatement({ channel: 'Agent Float', from: '2025-11-01' }));
    expect(postings).toStrictEqual([newest, oldest]);
    expect(server.requests.map((request) => request.body)).toStrictEqual([
      '<?xml version="1.0" encoding="utf-8"?><xml><channel>Agent Float</channel><from>2025-11-01</from></xml>',
      '<?xml version="1.0" encoding="utf-8"?><xml><channel>Agent Float</channel><from>2025-11-01</from><cursor>cursor-1</cursor></xml>',
    ]);
  });
});
