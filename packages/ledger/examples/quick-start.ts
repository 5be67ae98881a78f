import { createLedger, openStore } from '@topup/ledger';
import { parseSendAgentFloat } from '@topup/validation';

// PostgreSQL with `{ databaseUrl }`; without one, PGlite in `dataDir` (`memory://` keeps nothing on disk)
const store = await openStore({ dataDir: 'memory://' }); // migrates
const ledger = createLedger(store, { timeZone: 'Africa/Nairobi' });

const account = await ledger.createAccount({ name: 'Duka Supplies' });
await ledger.fund(account.id, 'float', 5_000_000n); // KES 50,000.00

const request = parseSendAgentFloat({
  mobile: '0712345678',
  amount: 1500,
  agent_number: '123456',
  store_number: '654321',
});
if (!request.ok) throw new Error(request.errors.join(', '));
const outcome = await ledger.requestAgentFloat({ accountId: account.id, request: request.value });
console.log(outcome.kind); // 'created' (or 'insufficient_balance', an idempotency outcome, …)
if (outcome.kind === 'created') {
  await ledger.complete(outcome.transaction.reference, { providerCode: 'MNA-REF-0097' });
}
console.log((await ledger.balance(account.id, 'float')).availableMinor); // 4850000n
console.log((await ledger.verify()).ok); // true
await ledger.close(); // flushes pending requests; the store stays open
await store.close();
