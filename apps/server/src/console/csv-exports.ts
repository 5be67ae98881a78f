// CSV exports of the transaction list and the statement, streamed page by page through the same API
// functions the screens call (`list_transactions`, `list_statement`), so an export holds exactly what the
// filtered screen would show, however many rows that is, and never the whole list in memory at once.

import { Readable } from 'node:stream';
import type { Envelope } from '@topup/envelope';
import type { Middleware } from 'koa';
import type { ApiState } from '../api-state.js';
import { ApiFailure } from '../api-failure.js';
import { handlers, parserFor } from '../functions/registry.js';
import type { HandlerResult } from '../functions/api-function.js';
import { ConsoleFailure } from './console-failure.js';
import type { ConsoleDependencies } from './console-context.js';
import type { SessionState } from './console-state.js';

type Row = Readonly<Record<string, unknown>>;

interface Export {
  readonly fn: 'list_transactions' | 'list_statement';
  readonly header: readonly string[];
  readonly rows: (data: Row) => readonly (readonly string[])[];
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const field = (object: unknown, name: string): string =>
  typeof object === 'object' && object !== null ? text((object as Row)[name]) : '';

const exportsByFile: Readonly<Record<string, Export>> = {
  'transactions.csv': {
    fn: 'list_transactions',
    header: [
      'reference',
      'date',
      'type',
      'state',
      'status',
      'amount',
      'currency',
      'network',
      'recipient_mobile',
      'payer_mobile',
      'note',
    ],
    rows: (data) =>
      ((data['transactions'] as Row[] | undefined) ?? []).map((entry) => {
        const transaction = entry['transaction'];
        return [
          field(transaction, 'reference'),
          field(transaction, 'date'),
          field(transaction, 'type'),
          field(transaction, 'state'),
          field(transaction, 'status'),
          field(transaction, 'amount'),
          field(transaction, 'currency'),
          field(transaction, 'network'),
          field(entry['recipient'], 'mobile'),
          field(entry['payment'], 'mobile'),
          field(transaction, 'note'),
        ];
      }),
  },
  'statement.csv': {
    fn: 'list_statement',
    header: ['id', 'date', 'reference', 'purpose', 'amount', 'balance_before', 'balance_after'],
    rows: (data) =>
      ((data['postings'] as Row[] | undefined) ?? []).map((posting) =>
        ['id', 'date', 'reference', 'purpose', 'amount', 'balance_before', 'balance_after'].map((name) =>
          field(posting, name),
        ),
      ),
  },
};

const plainNumber = /^-?\d+(\.\d+)?$/;

/** One CSV cell: quoted when needed, and text a spreadsheet would run as a formula is defused. */
export function csvCell(value: string): string {
  const safe = !plainNumber.test(value) && /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

function csvLine(cells: readonly string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

function envelopeOf(result: HandlerResult): Envelope {
  if (result.kind !== 'envelope') throw new Error('a listing function answered a stored reply');
  return result.envelope;
}

export function csvExports(deps: ConsoleDependencies): Middleware<SessionState & ApiState> {
  const parse = parserFor(deps.config);
  return async (ctx) => {
    const name = (ctx.params as Record<string, string | undefined>)['file'] ?? '';
    const found = Object.hasOwn(exportsByFile, name) ? exportsByFile[name] : undefined;
    if (found === undefined) throw new ConsoleFailure(404, 'not_found', 'No such export.');
    const file: Export = found;
    const { session } = ctx.state;
    const query = Object.fromEntries(
      Object.entries(ctx.query).flatMap(([name, value]) =>
        typeof value === 'string' && value !== '' ? [[name, value]] : [],
      ),
    );
    const { account: named, ...filters } = query;
    const accountId = session.role === 'caller' ? session.accountId : named;
    if (accountId === undefined)
      throw new ConsoleFailure(400, 'invalid', 'Name the account with ?account=ID.', ['account is required']);
    const account = await deps.ledger.getAccount(accountId);
    if (account === undefined) throw new ConsoleFailure(404, 'not_found', `No account ${accountId}.`);
    const first = parse(file.fn)({ ...filters, limit: '100' });
    if (!first.ok) throw new ConsoleFailure(400, 'invalid', first.errors.join('; '), first.errors);

    const page = async (cursor: string | undefined): Promise<Row> => {
      const input = cursor === undefined ? first.value : { ...(first.value as Row), cursor };
      const result = await handlers[file.fn]({
        ctx,
        account,
        input: input as never,
        deps: deps.api,
        renewedDeps: () => deps.api,
      });
      return envelopeOf(result).data;
    };
    // The first page is read before answering, so a bad filter is still a clean 400, not a broken file.
    let data = await page(undefined).catch((error: unknown) => {
      if (error instanceof ApiFailure)
        throw new ConsoleFailure(400, 'invalid', error.errors.join('; '), error.errors);
      throw error;
    });
    async function* lines(): AsyncGenerator<string> {
      yield csvLine(file.header);
      for (;;) {
        for (const row of file.rows(data)) yield csvLine(row);
        const next = text(data['next_cursor']);
        if (next === '') return;
        data = await page(next);
      }
    }
    ctx.set('Content-Type', 'text/csv; charset=utf-8');
    ctx.set(
      'Content-Disposition',
      `attachment; filename="${account.id}-${file.fn === 'list_transactions' ? 'transactions' : 'statement'}.csv"`,
    );
    const stream = Readable.from(lines());
    stream.on('error', (error) => {
      ctx.state.log.error({ err: error }, 'a CSV export stopped part way');
    });
    ctx.body = stream;
  };
}
