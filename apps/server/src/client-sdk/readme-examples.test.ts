// The client's README examples against the real service, in process on the embedded store: the results,
// errors, send-airtime, every-page and waiting examples, and the quick start as a reader runs it. The client's own README test checks that
// the README shows these files exactly.

import { createClient } from '@topup/client';
import { sendFloat } from '@topup/client/examples/errors';
import { airtimeStatementCsv, lastCancelledPurchase } from '@topup/client/examples/read-every-page';
import { buyForOrder } from '@topup/client/examples/results';
import { sendStaffAirtime } from '@topup/client/examples/send-airtime';
import { sendFloatAndWait } from '@topup/client/examples/wait-for-transaction';
import { openStore } from '@topup/ledger';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startTestService } from '../testing/test-service.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('the client README', () => {
  it('runs the results and errors examples against the real service', { timeout: 60_000 }, async () => {
    const store = await openStore({ dataDir: 'memory://' });
    const service = await startTestService(store);
    try {
      const funded = await service.createCaller({ float: 100_000n });
      const topup = createClient({ baseUrl: service.url, token: funded.token, retries: 0 });

      const first = await buyForOrder(topup, '1042', '254733000123');
      expect(first).toStrictEqual({
        reference: expect.stringMatching(/^TX[A-Z0-9]+$/) as string,
        balance: expect.stringMatching(/^\d+\.\d{2}$/) as string,
        message: 'Airtime purchase requested',
        requestId: expect.stringMatching(/^req_/) as string,
        replayed: false,
        idempotencyKey: 'order-1042',
      });
      const again = await buyForOrder(topup, '1042', '254733000123');
      expect(again).toMatchObject({ reference: first.reference, replayed: true });

      expect(await sendFloat(topup, '254712345678', 100)).toMatch(/^Sent: TX[A-Z0-9]+$/);
      expect(await sendFloat(topup, '254712345678', 5_000)).toBe('Top up the Agent Float channel first.');
      expect(await sendFloat(topup, '2547', 100)).toMatch(/^Fix the request: .*mobile/);
    } finally {
      await service.stop();
      await store.close();
    }
  });

  it(
    'runs the send-airtime example against the real service, once per month',
    { timeout: 60_000 },
    async () => {
      const store = await openStore({ dataDir: 'memory://' });
      const service = await startTestService(store);
      try {
        const funded = await service.createCaller({ airtime: 100_000n });
        const topup = createClient({ baseUrl: service.url, token: funded.token, retries: 0 });
        // The sandbox refuses numbers ending in 0003 at once.
        const staff = [
          { mobile: '254733000123', amount: 50 },
          { mobile: '254712340003', amount: 20 },
        ];

        const report = await sendStaffAirtime(topup, '2025-03', staff);
        expect(report).toStrictEqual([
          {
            mobile: '254733000123',
            reference: expect.stringMatching(/^TX[A-Z0-9]+$/) as string,
            refused: undefined,
          },
          {
            mobile: '254712340003',
            reference: expect.stringMatching(/^TX[A-Z0-9]+$/) as string,
            refused: expect.stringMatching(/.+/) as string,
          },
        ]);
        // The month's key replays the first answer: nobody is sent airtime twice.
        expect(await sendStaffAirtime(topup, '2025-03', staff)).toStrictEqual(report);
        const { channels } = await topup.getBalance();
        expect(channels.find((channel) => channel.type === 'Airtime')?.balance).toBe('950.00');
      } finally {
        await service.stop();
        await store.close();
      }
    },
  );

  it(
    'runs the every-page and waiting examples against the real service with its worker',
    { timeout: 60_000 },
    async () => {
      const store = await openStore({ dataDir: 'memory://' });
      const service = await startTestService(store, { worker: true });
      try {
        const funded = await service.createCaller({ float: 100_000n, airtime: 100_000n });
        const topup = createClient({ baseUrl: service.url, token: funded.token, retries: 0 });

        expect(await sendFloatAndWait(topup, '254712345678', 100)).toMatch(/^TX[A-Z0-9]+ completed$/);
        // The sandbox declines a number ending in 0001.
        expect(await sendFloatAndWait(topup, '254712340001', 100)).toMatch(/^TX[A-Z0-9]+ cancelled$/);

        // Two purchases for one number: the older cancelled (its payer declines), the newer completed.
        const purchase = (payer: string) =>
          topup.buyAirtime({
            mobile: '254733000123',
            amount: 50,
            payment_network: 'MoneyNetA',
            payment_mobile: payer,
          });
        const declined = await purchase('254722000001');
        const paid = await purchase('254722000111');
        for (const { transaction } of [declined, paid]) await topup.waitForTransaction(transaction.reference);
        expect(await lastCancelledPurchase(topup, '254733000123')).toBe(declined.transaction.reference);
        expect(await lastCancelledPurchase(topup, '254733000999')).toBeUndefined();

        const csv = (await airtimeStatementCsv(topup, '2000-01-01', '2100-01-01')).split('\n');
        expect(csv[0]).toBe('id,date,reference,purpose,amount,balance_after');
        expect(csv.slice(1).map((line) => line.split(',').slice(2, 5))).toStrictEqual([
          [paid.transaction.reference, 'airtime_payout', '-50.00'],
          [paid.transaction.reference, 'airtime_collection', '50.00'],
          ['', 'funding', '1000.00'],
        ]);
      } finally {
        await service.stop();
        await store.close();
      }
    },
  );

  it('runs the quick start against the real service', { timeout: 60_000 }, async () => {
    const store = await openStore({ dataDir: 'memory://' });
    const service = await startTestService(store, { worker: true });
    try {
      const { token } = await service.createCaller({ float: 250_050n });
      vi.stubEnv('TOPUP_URL', service.url);
      vi.stubEnv('TOPUP_TOKEN', token);
      const printed: string[] = [];
      vi.spyOn(console, 'log').mockImplementation((line: unknown) => {
        printed.push(String(line));
      });
      await import('@topup/client/examples/quick-start');
      expect(printed).toHaveLength(3);
      expect(printed.slice(0, 2)).toStrictEqual(['Agent Float: KES 2500.50', 'Airtime: KES 0.00']);
      expect(printed[2]).toMatch(/^Airtime purchase requested: TX\w+ \(request req_\w+\)$/);
    } finally {
      await service.stop();
      await store.close();
    }
  });
});
