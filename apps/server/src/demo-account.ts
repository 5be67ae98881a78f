// On a brand-new embedded store in sandbox mode, `pnpm start` creates a funded demo account and prints its
// token and a ready-to-paste curl for each operation, so a first run needs no set-up at all.

import type { Ledger } from '@topup/ledger';

export interface DemoAccount {
  readonly accountId: string;
  readonly token: string;
}

const demoFloatMinor = 10_000_000n; // KES 100,000.00

export async function createDemoAccountIfEmpty(ledger: Ledger): Promise<DemoAccount | undefined> {
  if ((await ledger.listAccounts()).length > 0) return undefined;
  const account = await ledger.createAccount({
    name: 'Demo Business',
    mobile: '254700000100',
    email: 'demo@example.com',
    agent_name: 'Demo Agent',
    agent_number: '100100',
    store_number: '200200',
  });
  await ledger.fund(account.id, 'float', demoFloatMinor);
  const { token } = await ledger.issueToken(account.id, 'test');
  return { accountId: account.id, token };
}

export function demoInstructions(baseUrl: string, demo: DemoAccount): string {
  const auth = `-H 'Authorization: Bearer ${demo.token}'`;
  return [
    '',
    `A demo account was created (${demo.accountId}), funded with KES 100,000.00 of agent float.`,
    `Its API token, shown only now: ${demo.token}`,
    '',
    'Send agent float:',
    `  curl -s ${baseUrl}/api/send_agent_float ${auth} -H 'Content-Type: application/json' \\`,
    `    -d '{"mobile":"254722000123","amount":"500","network":"MoneyNetA","agent_number":"123456","store_number":"654321","note":"first float"}'`,
    '',
    'Buy airtime (the payer is prompted; the simulator completes it after a short delay):',
    `  curl -s ${baseUrl}/api/buy_airtime ${auth} -H 'Content-Type: application/json' \\`,
    `    -d '{"mobile":"254733000123","amount":"50","payment_network":"MoneyNetB","payment_mobile":"254722000456"}'`,
    '',
    'The same as XML:',
    `  curl -s ${baseUrl}/api/buy_airtime ${auth} -H 'Content-Type: text/xml' -H 'Accept: text/xml' \\`,
    `    -d '<xml><mobile>254733000123</mobile><amount>50</amount><payment_network>MoneyNetB</payment_network><payment_mobile>254722000456</payment_mobile></xml>'`,
    '',
    'Balances:',
    `  curl -s -X POST ${baseUrl}/api/get_balance ${auth}`,
    '',
  ].join('\n');
}
