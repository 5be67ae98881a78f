// `pnpm start:fakes`: the fakes of the live providers (Daraja, Africa's Talking) on loopback, for running the
// whole service in live mode on one machine. It prints the environment that points the service at them
// (with a fresh webhook token) and runs until stopped. The fakes script each transaction's end by the last
// digits of a number: docs/going-live.md lists them.

import { randomBytes } from 'node:crypto';
import { startLiveFakes } from '@topup/providers/fakes';

const fakes = await startLiveFakes({
  publicBaseUrl: `http://127.0.0.1:${process.env.PORT ?? '8080'}`,
  webhookToken: `wh_${randomBytes(24).toString('hex')}`,
  // A payer answers a prompt, and a carrier credits airtime, in about this long.
  delayMs: 1_500,
  darajaPort: Number(process.env.FAKE_DARAJA_PORT ?? '9100'),
  africasTalkingPort: Number(process.env.FAKE_AT_PORT ?? '9101'),
});
process.stdout.write(
  `The fake Daraja listens on ${fakes.daraja.url}, the fake Africa's Talking on ${fakes.africasTalking.url}. ` +
    `In another shell, run the service against them:\n\n` +
    Object.entries(fakes.environment)
      .map(([name, value]) => `export ${name}='${value}'`)
      .join('\n') +
    `\npnpm topup account create --name "Live trial" --mode live\npnpm start\n\nCtrl-C stops the fakes.\n`,
);

const stop = () => {
  void fakes.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
