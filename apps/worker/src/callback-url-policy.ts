// The rules a callback URL must meet (DESIGN.md section 6): `https` in live mode, and every address its
// host resolves to must be public unless private addresses are explicitly allowed (the sandbox allows them
// for local development). Used at registration by the server and again at each delivery, where the worker
// connects to the addresses checked here so a DNS answer that changes in between (rebinding) cannot
// redirect the callback.

import { lookup } from 'node:dns/promises';
import { answerWithin, late } from './answer-within.js';
import { isIP } from 'node:net';
import { nonPublicRangeOf } from './ip-address-ranges.js';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has; the default asks the system resolver. */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface CallbackUrlPolicy {
  readonly mode: 'sandbox' | 'live';
  /** Allows loopback, private and other non-public addresses (true in sandbox by default). */
  readonly allowPrivateAddresses: boolean;
  readonly resolve?: HostResolver;
  /** Longest wait for the resolver, in ms; default 5000 (a request or a delivery waits on it). */
  readonly resolveTimeoutMs?: number;
}

const defaultResolveTimeoutMs = 5_000;

export type CallbackUrlCheck =
  | { readonly ok: true; readonly url: URL; readonly addresses: readonly ResolvedAddress[] }
  | { readonly ok: false; readonly problem: string };

const systemResolver: HostResolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

function refuse(problem: string): CallbackUrlCheck {
  return { ok: false, problem };
}

async function resolveHost(
  hostname: string,
  resolve: HostResolver,
  timeoutMs: number,
): Promise<{ addresses: readonly ResolvedAddress[] } | { problem: string }> {
  const family = isIP(hostname);
  if (family !== 0) return { addresses: [{ address: hostname, family: family === 6 ? 6 : 4 }] };
  try {
    // The system resolver cannot be cancelled, only no longer waited for.
    const addresses = await answerWithin(resolve(hostname), timeoutMs);
    if (addresses === late) {
      return {
        problem: `expected the host ${hostname} to resolve within ${timeoutMs} ms, received no answer`,
      };
    }
    if (addresses.length === 0)
      return { problem: `expected the host ${hostname} to resolve, received no address` };
    return { addresses };
  } catch (error) {
    const reason =
      error instanceof Error ? ((error as NodeJS.ErrnoException).code ?? error.message) : String(error);
    return { problem: `expected the host ${hostname} to resolve, received ${reason}` };
  }
}

/**
 * Checks a callback URL against the policy and resolves its host. On success the result carries the
 * checked addresses, which the caller should connect to instead of resolving the name again.
 */
export async function checkCallbackUrl(
  url: string | URL,
  policy: CallbackUrlPolicy,
): Promise<CallbackUrlCheck> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuse(`expected an absolute http(s) URL, received ${JSON.stringify(String(url))}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    return refuse(`expected an http or https URL, received a ${parsed.protocol} URL`);
  }
  if (policy.mode === 'live' && parsed.protocol !== 'https:') {
    return refuse('expected an https URL in live mode, received an http URL');
  }
  // Credentials in a URL end up in listings and logs; a receiver authenticates callbacks by their signature.
  if (parsed.username !== '' || parsed.password !== '') {
    return refuse('expected a URL without a user name or password, received one with credentials');
  }
  // An IPv6 literal keeps its brackets in `hostname`.
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const resolved = await resolveHost(
    hostname,
    policy.resolve ?? systemResolver,
    policy.resolveTimeoutMs ?? defaultResolveTimeoutMs,
  );
  if ('problem' in resolved) return refuse(resolved.problem);
  if (!policy.allowPrivateAddresses) {
    for (const { address } of resolved.addresses) {
      const range = nonPublicRangeOf(address);
      if (range !== undefined) {
        const via = address === hostname ? address : `${hostname}, which resolves to ${address}`;
        return refuse(
          `expected a host with public addresses only, received ${via} (${range.kind}, ${range.cidr})`,
        );
      }
    }
  }
  return { ok: true, url: parsed, addresses: resolved.addresses };
}
