// The providers of the live airtime case: the fake Daraja and the fake Africa's Talking, started in the
// harness process on loopback, with the environment that points a live service at them. The fakes end each
// prompt and each delivery after 50 ms rather than the seconds a payer and a carrier take (`pnpm
// start:fakes` uses 1.5 s), so the case's figures measure the service carrying the legs, not the fakes'
// scripted waits.

import { randomBytes } from 'node:crypto';
import { startLiveFakes } from '@topup/providers/fakes';

/** How long the fakes take to end a prompt (Daraja) and a delivery (Africa's Talking). */
export const fakeDelayMs = 50;

export interface BenchLiveProviders {
  /** The variables that put the service in live mode against the fakes. */
  readonly env: Readonly<Record<string, string>>;
  /**
   * Callbacks the fakes POSTed that were not answered 200 (0: no answer at all): our webhook routes
   * refusing or dropping them, which explains purchases that never complete.
   */
  refusedCallbacks(): number;
  close(): Promise<void>;
}

/** Starts both fakes for a service that will listen on `servicePort` of 127.0.0.1. */
export async function startBenchLiveProviders(servicePort: number): Promise<BenchLiveProviders> {
  const fakes = await startLiveFakes({
    publicBaseUrl: `http://127.0.0.1:${String(servicePort)}`,
    webhookToken: `wh_bench_${randomBytes(16).toString('hex')}`,
    delayMs: fakeDelayMs,
  });
  return {
    // Both fakes call back from 127.0.0.1, so the per-address webhook limit would count two providers as
    // one source: at a few hundred purchases a second it refused callbacks the fakes never send again.
    // Set, like the API's limit, far above what a run sends.
    env: { ...fakes.environment, PROVIDER_WEBHOOK_RATE_LIMIT: '1000000' },
    refusedCallbacks: () =>
      [...fakes.daraja.callbacks, ...fakes.africasTalking.callbacks].filter(
        (callback) => callback.status !== 200,
      ).length,
    close: () => fakes.close(),
  };
}
