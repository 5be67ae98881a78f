import { createClient } from '@topup/client';
import type { TopupClient } from '@topup/client';

/** A client with every option written out; only `baseUrl` and `token` are required. */
export function topupClient(token: string): TopupClient {
  return createClient({
    baseUrl: 'https://topup.example.com', // `/api/<function>` is appended; a path prefix is kept
    token, // sent as `Authorization: Bearer …`
    format: 'json', // or 'xml'; default 'json'
    timeoutMs: 30_000, // per attempt, answer body included; default 30 s
    retries: 2, // retries after the first attempt, or { attempts, baseDelayMs, maxDelayMs }
    fetch, // optional: your own fetch (a proxy agent, a test double); default the global fetch
  });
}
