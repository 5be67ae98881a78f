// `pnpm start:fakes`: the fakes of the live providers (Daraja, Africa's Talking) on loopback, for running the
// whole service in live mode on one machine. It prints the environment that points the service at them (with a fresh webhook
// token) and runs until stopped. The fakes script each transaction's end by the last digits of a number:
// docs/going-live.md lists them.

import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startFakeAfricasTalking, startFakeDaraja } from '@topup/providers/fakes';

const darajaPort = Number(process.env.FAKE_DARAJA_PORT ?? '9100');
const africasTalkingPort = Number(process.env.FAKE_AT_PORT ?? '9101');
const servicePort = process.env.PORT ?? '8080';
const app = {
  consumerKey: 'fake-consumer-key',
  consumerSecret: 'fake-consumer-secret',
  shortCode: '600992',
  passkey: 'fake-passkey',
  initiatorName: 'topupapi',
  initiatorPassword: 'fake-initiator-password',
};
const certificate = fileURLToPath(
  new URL('../../../packages/providers/src/fakes/fixtures/fake-daraja-certificate.pem', import.meta.url),
);

const at = { username: 'fake-at-user', apiKey: 'fake-at-api-key' };
const publicBaseUrl = `http://127.0.0.1:${servicePort}`;
const webhookToken = `wh_${randomBytes(24).toString('hex')}`;

const daraja = await startFakeDaraja({ ...app, promptMs: 1_500, port: darajaPort });
// Africa's Talking's status callback URL is set once in its dashboard, here given to the fake.
const africasTalking = await startFakeAfricasTalking({
  ...at,
  callbackUrl: `${publicBaseUrl}/providers/africastalking/${webhookToken}/airtime-status`,
  deliveryMs: 1_500,
  port: africasTalkingPort,
});
const environment = {
  TOPUP_MODE: 'live',
  PROVIDERS: 'MoneyNetA=daraja,CarrierA=africastalking,CarrierB=africastalking,CarrierC=africastalking',
  PUBLIC_BASE_URL: publicBaseUrl,
  PROVIDER_WEBHOOK_TOKEN: webhookToken,
  DARAJA_BASE_URL: daraja.url,
  DARAJA_CONSUMER_KEY: app.consumerKey,
  DARAJA_CONSUMER_SECRET: app.consumerSecret,
  DARAJA_SHORTCODE: app.shortCode,
  DARAJA_INITIATOR_NAME: app.initiatorName,
  DARAJA_INITIATOR_PASSWORD: app.initiatorPassword,
  DARAJA_CERTIFICATE: certificate,
  DARAJA_PASSKEY: app.passkey,
  // The fake calls back from this machine, not from Safaricom's addresses.
  DARAJA_ALLOWED_SOURCES: '127.0.0.1',
  AT_BASE_URL: africasTalking.url,
  AT_USERNAME: at.username,
  AT_API_KEY: at.apiKey,
};
process.stdout.write(
  `The fake Daraja listens on ${daraja.url}, the fake Africa's Talking on ${africasTalking.url}. ` +
    `In another shell, run the service against them:\n\n` +
    Object.entries(environment)
      .map(([name, value]) => `export ${name}='${value}'`)
      .join('\n') +
    `\npnpm topup account create --name "Live trial" --mode live\npnpm start\n\nCtrl-C stops the fakes.\n`,
);

const stop = () => {
  void Promise.all([daraja.close(), africasTalking.close()]).then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
