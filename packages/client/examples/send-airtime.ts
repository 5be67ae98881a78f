import type { TopupClient } from '@topup/client';

/** Sends each staff member their monthly airtime from the Airtime channel, in one request. */
export async function sendStaffAirtime(
  topup: TopupClient,
  month: string,
  staff: readonly { readonly mobile: string; readonly amount: number }[],
) {
  const sent = await topup.sendAirtime(
    { recipients: staff.map(({ mobile, amount }) => ({ mobile, amount })), note: `staff airtime ${month}` },
    // One key per month: a repeat after a crash replays the answer instead of sending twice.
    { idempotencyKey: `staff-airtime-${month}` },
  );
  // One transaction per recipient, in the order given. A recipient its carrier refused at once is
  // Cancelled, with the reason in its errors; the others go on.
  return sent.transactions.map((entry) => ({
    mobile: entry.recipient.mobile,
    reference: entry.reference, // correlate the recipient's callback with it
    refused: entry.status === 'Cancelled' ? entry.errors.join('; ') : undefined,
  }));
}
