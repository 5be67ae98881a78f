// `PROVIDERS`: which provider carries each network in live mode, written `MoneyNetA=daraja,CarrierA=
// africastalking`. Read here into a map from network token to provider id, with every problem named; the
// ids are checked against the providers this build has when the configuration is loaded.

import { carriers, moneyNetworks } from '@topup/validation';
import { z } from 'zod';

const networkTokens: ReadonlySet<string> = new Set<string>([...moneyNetworks, ...carriers]);

/** Problems with a `PROVIDERS` value, each saying what was expected; empty when it reads. */
export function providerMapProblems(text: string): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const pair of text.split(',').map((entry) => entry.trim())) {
    const match = /^([A-Za-z0-9]+)=([a-z][a-z0-9-]*)$/.exec(pair);
    if (match === null) {
      problems.push(
        `expected network=provider pairs such as MoneyNetA=daraja, received ${JSON.stringify(pair)}`,
      );
      continue;
    }
    const [, network = ''] = match;
    if (!networkTokens.has(network)) {
      problems.push(
        `expected a network token (${[...networkTokens].join(', ')}), received ${JSON.stringify(network)}`,
      );
    } else if (seen.has(network)) {
      problems.push(`expected each network once, received ${network} twice`);
    }
    seen.add(network);
  }
  return problems;
}

/** A `PROVIDERS` value that reads: network token to provider id, in the order written. */
export const providerMap = z
  .string()
  .superRefine((text, ctx) => {
    for (const message of providerMapProblems(text)) ctx.addIssue({ code: 'custom', message });
  })
  .transform(
    (text) =>
      new Map(
        text.split(',').map((entry) => {
          const [network = '', provider = ''] = entry.trim().split('=');
          return [network, provider] as const;
        }),
      ) as ReadonlyMap<string, string>,
  );
