// The caller every case sends as: one active account with a test token (a live one for the live case,
// since a live service refuses test tokens), funded well beyond what a run can spend (so no request is
// refused for balance), and optionally a callback endpoint.

import { createLedger } from '@topup/ledger';
import type { Store, TokenMode } from '@topup/ledger';

export interface BenchCaller {
  readonly accountId: string;
  readonly token: string;
}

/**
 * KES 100 billion in each channel: at 100 shillings a float request, more than a billion requests; at 50
 * shillings a recipient, two billion recipients sent from the Airtime balance.
 */
const channelFundingMinor = 10_000_000_000_000n;

/**
 * Creates the caller in `store` with a token of `tokenMode` (default `test`); with `callbackUrl`, also a
 * JSON callback endpoint pointing there.
 */
export async function createBenchCaller(
  store: Store,
  options: { callbackUrl?: string; tokenMode?: TokenMode; name?: string } = {},
): Promise<BenchCaller> {
  const ledger = createLedger(store);
  try {
    const account = await ledger.createAccount({
      name: options.name ?? 'Bench Agencies',
      mobile: '254700000100',
      email: 'ops@bench.example',
      agent_name: 'Bench Till',
      agent_number: '100100',
      store_number: '200200',
    });
    await ledger.fund(account.id, 'float', channelFundingMinor);
    await ledger.fund(account.id, 'airtime', channelFundingMinor);
    const { token } = await ledger.issueToken(account.id, options.tokenMode ?? 'test');
    if (options.callbackUrl !== undefined) {
      await ledger.addCallbackEndpoint(account.id, {
        url: options.callbackUrl,
        format: 'json',
        description: 'bench receiver',
      });
    }
    return { accountId: account.id, token };
  } finally {
    await ledger.close();
  }
}
