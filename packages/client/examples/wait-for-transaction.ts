import { TransactionWaitError } from '@topup/client';
import type { TopupClient } from '@topup/client';

/** Sends float and waits for how it ended, for a caller that cannot receive callbacks. */
export async function sendFloatAndWait(topup: TopupClient, mobile: string, amount: number): Promise<string> {
  const sent = await topup.sendAgentFloat({ mobile, amount, agent_number: '300300', store_number: '400400' });
  try {
    const { transaction } = await topup.waitForTransaction(sent.transaction.reference, {
      timeoutMs: 120_000, // give up waiting after two minutes; the transaction itself goes on
    });
    return `${transaction.reference} ${transaction.state}`; // 'TX… completed' or 'TX… cancelled'
  } catch (error) {
    if (!(error instanceof TransactionWaitError)) throw error;
    // Still requested: it ends later, and get_transaction (or a callback) will tell how.
    return `${error.reference} still ${error.transaction?.transaction.state ?? 'unread'}`;
  }
}
