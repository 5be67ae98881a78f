import { describe, expect, it } from 'vitest';
import { statementCsvUrl, transactionsCsvUrl } from './export-links';

describe('CSV export links', () => {
  it('carry the listing’s filters', () => {
    expect(transactionsCsvUrl({ state: 'completed', reference: 'TX&1' })).toBe(
      '/console/api/export/transactions.csv?state=completed&reference=TX%261',
    );
  });

  it('name the account an operator exports', () => {
    expect(statementCsvUrl({ channel: 'Airtime', from: '2025-11-01' }, 'acc 1')).toBe(
      '/console/api/export/statement.csv?channel=Airtime&from=2025-11-01&account=acc+1',
    );
  });

  it('have no query when nothing is filtered', () => {
    expect(transactionsCsvUrl({})).toBe('/console/api/export/transactions.csv');
  });
});
