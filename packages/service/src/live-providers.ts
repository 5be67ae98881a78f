// The live providers this build has, by the id PROVIDERS names them with. Each is made once per process
// from the configuration and the store; the money networks and carriers it serves are PROVIDERS' choice.

import type { Store } from '@topup/ledger';
import { createAfricasTalkingProvider, createDarajaProvider, securityCredential } from '@topup/providers';
import type { Provider } from '@topup/providers';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Metrics } from './metrics.js';

/** What a live provider is made from. */
export interface LiveProviderContext {
  readonly config: Config;
  readonly store: Store;
  readonly logger: Logger;
  /** The process's metrics, where a provider's warnings are counted. */
  readonly metrics: Metrics;
}

export type LiveProviderFactory = (context: LiveProviderContext) => Provider;

/**
 * `{PUBLIC_BASE_URL}/providers/<provider>/<PROVIDER_WEBHOOK_TOKEN>`, where a provider's calls come;
 * `shown: true` puts `***` in place of the token, for a log line.
 */
export function webhookUrlOf(config: Config, provider: string, { shown = false } = {}): string {
  if (config.publicBaseUrl === undefined || config.providerWebhookToken === undefined) {
    throw new Error(
      `Expected PUBLIC_BASE_URL and PROVIDER_WEBHOOK_TOKEN for ${provider}'s callbacks, received ${config.publicBaseUrl === undefined ? 'no PUBLIC_BASE_URL' : 'no PROVIDER_WEBHOOK_TOKEN'}.`,
    );
  }
  return `${config.publicBaseUrl}/providers/${provider}/${shown ? '***' : config.providerWebhookToken}`;
}

function daraja({ config, store, logger }: LiveProviderContext): Provider {
  const settings = config.daraja;
  if (settings === undefined) throw new Error('Expected the DARAJA_* configuration, received none.');
  logger.warn(
    { provider: 'daraja', commandId: settings.b2bCommandId },
    'agent float through Daraja B2B is experimental: Daraja documents no agent-float product; confirm the command with Safaricom',
  );
  const { b2b } = settings;
  return createDarajaProvider({
    store,
    endpoint: { baseUrl: settings.baseUrl, timeoutMs: config.providerTimeoutMs },
    credentials: { consumerKey: settings.consumerKey, consumerSecret: settings.consumerSecret },
    shortCode: settings.shortCode,
    initiatorName: settings.initiatorName,
    securityCredential: securityCredential(settings.initiatorPassword, settings.certificatePem),
    b2bCommandId: settings.b2bCommandId,
    ...(b2b === undefined
      ? {}
      : {
          b2b: {
            shortCode: b2b.shortCode,
            initiatorName: b2b.initiatorName,
            securityCredential: securityCredential(b2b.initiatorPassword, settings.certificatePem),
          },
        }),
    ...(settings.stk === undefined ? {} : { stk: settings.stk }),
    webhookUrl: webhookUrlOf(config, 'daraja'),
  });
}

function africasTalking({ config, store, logger, metrics }: LiveProviderContext): Provider {
  const settings = config.africasTalking;
  if (settings === undefined) throw new Error('Expected the AT_* configuration, received none.');
  // Set in Africa's Talking's dashboard, not per call: the operator needs to see it, but a log is no
  // place for the secret that lets anyone push results, so the token is left for the operator to fill in.
  logger.info(
    {
      provider: 'africastalking',
      statusCallbackUrl: `${webhookUrlOf(config, 'africastalking', { shown: true })}/airtime-status`,
    },
    'set this airtime status callback URL in the Africa’s Talking dashboard, with PROVIDER_WEBHOOK_TOKEN in place of ***',
  );
  return createAfricasTalkingProvider({
    store,
    baseUrl: settings.baseUrl,
    username: settings.username,
    apiKey: settings.apiKey,
    timeoutMs: config.providerTimeoutMs,
    onWalletLow: ({ reference, amountMinor, reason }) => {
      metrics.providerWalletLow.inc({ provider: 'africastalking' });
      logger.error(
        { provider: 'africastalking', reference, amountMinor: String(amountMinor), reason },
        'Africa’s Talking refused a send because the airtime wallet cannot pay for it: fund the wallet',
      );
    },
    // AT's discount is its commission on the airtime sent: the wallet is charged the value less it.
    onSent: ({ reference, requestId, amountMinor, discount }) => {
      logger.info(
        { provider: 'africastalking', reference, requestId, amountMinor: String(amountMinor), discount },
        'airtime handed to the carrier',
      );
    },
  });
}

/**
 * M-Pesa through Daraja (purchases' payments by STK push and their refunds by reversal; agent float by B2B,
 * experimental) and Africa's Talking (airtime delivered on every carrier).
 */
export const liveProviders: ReadonlyMap<string, LiveProviderFactory> = new Map([
  ['daraja', daraja],
  ['africastalking', africasTalking],
]);
