// Both fakes a live service needs for a purchase (Daraja for payments, refunds and float; Africa's Talking
// for deliveries), started together on loopback with one set of credentials, and the environment that
// points the service at them. `pnpm start:fakes` prints that environment; the live tests and the bench
// start the service with it. Africa's Talking's status callback URL is set once in its dashboard, so the
// fake is told the service's webhook route when it starts.

import { fileURLToPath } from 'node:url';
import { startFakeAfricasTalking, type FakeAfricasTalking } from './fake-africastalking.js';
import { startFakeDaraja, type FakeDaraja } from './fake-daraja.js';

/**
 * Where the service will be reached, and how quickly the fakes end what they are sent.
 *
 * @example
 * ```ts
 * import type { LiveFakesOptions } from '@topup/providers/fakes';
 *
 * const options: LiveFakesOptions = {
 *   publicBaseUrl: 'http://127.0.0.1:8080',
 *   webhookToken: 'wh_0123456789abcdef0123456789abcdef',
 *   delayMs: 50,
 * };
 * ```
 */
export interface LiveFakesOptions {
  /** The service's PUBLIC_BASE_URL: where both fakes call back. */
  readonly publicBaseUrl: string;
  /** PROVIDER_WEBHOOK_TOKEN, the secret segment of the webhook routes. */
  readonly webhookToken: string;
  /** How long a prompt, an initiator call and a delivery take to end (default 200 ms). */
  readonly delayMs?: number;
  /** How long an initiator call (B2B, Reversal, Transaction Status) takes to answer, if not `delayMs`. */
  readonly resultDelayMs?: number;
  /**
   * How long Africa's Talking refuses a repeat of an Idempotency-Key, and the same number and amount, as a
   * duplicate (default five minutes each, as AT does).
   */
  readonly idempotencyWindowMs?: number;
  readonly duplicateWindowMs?: number;
  /** Loopback ports to listen on; any free ones by default. */
  readonly darajaPort?: number;
  readonly africasTalkingPort?: number;
}

/**
 * The running fakes and the service's environment for them.
 *
 * @example
 * ```ts
 * import type { LiveFakes } from '@topup/providers/fakes';
 *
 * const providersOf = (fakes: LiveFakes) => fakes.environment['PROVIDERS'];
 * ```
 */
export interface LiveFakes {
  readonly daraja: FakeDaraja;
  readonly africasTalking: FakeAfricasTalking;
  /** TOPUP_MODE, PROVIDERS, PUBLIC_BASE_URL, PROVIDER_WEBHOOK_TOKEN, DARAJA_* and AT_* for the service. */
  readonly environment: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** The credentials the fakes check and the environment gives the service. */
const daraja = {
  consumerKey: 'fake-consumer-key',
  consumerSecret: 'fake-consumer-secret',
  shortCode: '600992',
  passkey: 'fake-passkey',
  initiatorName: 'topupapi',
  initiatorPassword: 'fake-initiator-password',
};
const africasTalking = { username: 'fake-at-user', apiKey: 'fake-at-api-key' };

/**
 * Starts the fake Daraja and the fake Africa's Talking for a service at `publicBaseUrl`.
 *
 * @example
 * ```ts
 * import { startLiveFakes } from '@topup/providers/fakes';
 *
 * const fakes = await startLiveFakes({
 *   publicBaseUrl: 'http://127.0.0.1:8080',
 *   webhookToken: 'wh_0123456789abcdef0123456789abcdef',
 * });
 * // Start the service with { ...process.env, ...fakes.environment }, then:
 * await fakes.close();
 * ```
 */
export async function startLiveFakes(options: LiveFakesOptions): Promise<LiveFakes> {
  const { publicBaseUrl, webhookToken } = options;
  const delayMs = options.delayMs ?? 200;
  const fakeDaraja = await startFakeDaraja({
    ...daraja,
    promptMs: delayMs,
    ...(options.resultDelayMs === undefined ? {} : { resultDelayMs: options.resultDelayMs }),
    ...(options.darajaPort === undefined ? {} : { port: options.darajaPort }),
  });
  const fakeAfricasTalking = await startFakeAfricasTalking({
    ...africasTalking,
    callbackUrl: `${publicBaseUrl}/providers/africastalking/${webhookToken}/airtime-status`,
    deliveryMs: delayMs,
    ...(options.idempotencyWindowMs === undefined
      ? {}
      : { idempotencyWindowMs: options.idempotencyWindowMs }),
    ...(options.duplicateWindowMs === undefined ? {} : { duplicateWindowMs: options.duplicateWindowMs }),
    ...(options.africasTalkingPort === undefined ? {} : { port: options.africasTalkingPort }),
  }).catch(async (error: unknown) => {
    await fakeDaraja.close();
    throw error;
  });
  return {
    daraja: fakeDaraja,
    africasTalking: fakeAfricasTalking,
    environment: {
      TOPUP_MODE: 'live',
      PROVIDERS: 'MoneyNetA=daraja,CarrierA=africastalking,CarrierB=africastalking,CarrierC=africastalking',
      PUBLIC_BASE_URL: publicBaseUrl,
      PROVIDER_WEBHOOK_TOKEN: webhookToken,
      DARAJA_BASE_URL: fakeDaraja.url,
      DARAJA_CONSUMER_KEY: daraja.consumerKey,
      DARAJA_CONSUMER_SECRET: daraja.consumerSecret,
      DARAJA_SHORTCODE: daraja.shortCode,
      DARAJA_PASSKEY: daraja.passkey,
      DARAJA_INITIATOR_NAME: daraja.initiatorName,
      DARAJA_INITIATOR_PASSWORD: daraja.initiatorPassword,
      DARAJA_CERTIFICATE: fileURLToPath(new URL('./fixtures/fake-daraja-certificate.pem', import.meta.url)),
      // The fakes call back from this machine, not from Safaricom's addresses.
      DARAJA_ALLOWED_SOURCES: '127.0.0.1',
      AT_BASE_URL: fakeAfricasTalking.url,
      AT_USERNAME: africasTalking.username,
      AT_API_KEY: africasTalking.apiKey,
    },
    async close() {
      await Promise.all([fakeDaraja.close(), fakeAfricasTalking.close()]);
    },
  };
}
