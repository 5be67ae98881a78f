import type { TopupClient } from '@topup/client';

/** Buys airtime for an order and keeps what the result says besides the transaction's data. */
export async function buyForOrder(topup: TopupClient, order: string, mobile: string) {
  const purchase = await topup.buyAirtime(
    { mobile, amount: 50, payment_network: 'MoneyNetA', payment_mobile: '254722000111' },
    { idempotencyKey: `order-${order}` },
  );
  return {
    reference: purchase.transaction.reference, // 'TXC1CMBJJ5QEXB': correlate callbacks with it
    balance: purchase.channel.balance, // '1500.00': always a string with two decimals, never a float
    message: purchase.message, // 'Airtime purchase requested' (status.message)
    requestId: purchase.requestId, // 'req_…' (X-Request-Id): quote it when asking about a call
    replayed: purchase.replayed, // true when the service replayed its first answer to this key
    idempotencyKey: purchase.idempotencyKey, // the Idempotency-Key it was sent with (operations only)
  };
}
