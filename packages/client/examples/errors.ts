import { InsufficientBalanceError, InvalidParametersError } from '@topup/client';
import type { TopupClient } from '@topup/client';

/** Sends agent float; the two failures a caller can act on become advice, anything else is thrown. */
export async function sendFloat(topup: TopupClient, mobile: string, amount: number): Promise<string> {
  try {
    const sent = await topup.sendAgentFloat({
      mobile,
      amount,
      agent_number: '123456',
      store_number: '654321',
    });
    return `Sent: ${sent.transaction.reference}`;
  } catch (error) {
    if (error instanceof InsufficientBalanceError) return 'Top up the Agent Float channel first.';
    if (error instanceof InvalidParametersError) return `Fix the request: ${error.errors.join(', ')}`;
    throw error;
  }
}
