// `pnpm start:fakes`: the fakes of the live providers on loopback, for running the whole service in live
// mode on one machine. It prints the environment that points the service at them (with a fresh webhook
// token) and runs until stopped. The fakes script each transaction's end by the last digits of a number:
// docs/going-live.md lists them.

import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startFakeDaraja } from '@topup/providers/fakes';

const darajaPort = Number(process.env.FAKE_DARAJA_PORT ?? '9100');
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

const daraja = await startFakeDaraja({ ...app, promptMs: 1_500, port: darajaPort });
const environment = {
  TOPUP_MODE: 'live',
  PROVIDERS: 'MoneyNetA=daraja',
  PUBLIC_BASE_URL: `http://127.0.0.1:${servicePort}`,
  PROVIDER_WEBHOOK_TOKEN: `wh_${randomBytes(24).toString('hex')}`,
  DARAJA_BASE_URL: daraja.url,
  DARAJA_CONSUMER_KEY: app.consumerKey,
  DARAJA_CONSUMER_SECRET: app.consumerSecret,
  DARAJA_SHORTCODE: app.shortCode,
  DARAJA_INITIATOR_NAME: app.initiatorName,
  DARAJA_INITIATOR_PASSWORD: app.initiatorPassword,
  DARAJA_CERTIFICATE: certificate,
  // The fake calls back from this machine, not from Safaricom's addresses.
  DARAJA_ALLOWED_SOURCES: '127.0.0.1',
};
process.stdout.write(
  `The fake Daraja listens on ${daraja.url}. In another shell, run the service against it:\n\n` +
    Object.entries(environment)
      .map(([name, value]) => `export ${name}='${value}'`)
      .join('\n') +
    `\npnpm topup account create --name "Live trial" --mode live\npnpm start\n\nCtrl-C stops the fakes.\n`,
);

const stop = () => {
  void daraja.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
