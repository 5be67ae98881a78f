import { createClient, InvalidParametersError, TopupTransportError } from '@topup/client';

const token = process.env.TOPUP_TOKEN;
if (token === undefined) throw new Error('Set TOPUP_TOKEN to your API token (tk_test_… or tk_live_…).');

const topup = createClient({ baseUrl: process.env.TOPUP_URL ?? 'http://127.0.0.1:8080', token });

const { channels } = await topup.getBalance();
for (const channel of channels) console.log(`${channel.type}: ${channel.currency} ${channel.balance}`);

try {
  const purchase = await topup.buyAirtime(
    {
      mobile: '254712345678',
      amount: 100,
      payment_network: 'MoneyNetA',
      payment_mobile: '254722000111',
      note: 'order 1042',
    },
    // The same key for the same order: a repeat after a crash replays the answer instead of buying twice.
    { idempotencyKey: 'order-1042' },
  );
  console.log(`${purchase.message}: ${purchase.transaction.reference} (request ${purchase.requestId})`);
} catch (error) {
  if (error instanceof InvalidParametersError) {
    console.error('Fix the request:', error.errors.join(', '));
  } else if (error instanceof TopupTransportError && error.mayHaveReachedServer) {
    console.error(`Outcome unknown: repeat with idempotency key ${error.idempotencyKey} to find out.`);
  } else {
    throw error;
  }
}
