import type { TopupClient } from '@topup/client';

/** The day's Airtime statement as CSV, for reconciliation: every posting, however many pages. */
export async function airtimeStatementCsv(topup: TopupClient, from: string, to: string): Promise<string> {
  const lines = ['id,date,reference,purpose,amount,balance_after'];
  for await (const posting of topup.listAllStatement({ channel: 'Airtime', from, to })) {
    const { id, date, reference, purpose, amount, balance_after } = posting;
    lines.push([id, date, reference, purpose, amount, balance_after].join(','));
  }
  return lines.join('\n');
}

/** The first cancelled purchase to a number, newest first: reading stops there, fetching no more pages. */
export async function lastCancelledPurchase(topup: TopupClient, mobile: string) {
  for await (const { transaction } of topup.listAllTransactions({
    type: 'Airtime',
    state: 'cancelled',
    mobile,
  })) {
    return transaction.reference;
  }
  return undefined;
}
