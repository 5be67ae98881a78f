// The rules a callback URL must meet, in every mode (docs/architecture.md, Callbacks): `https` in live mode, and every
// address its host resolves to public, with two exceptions an operator grants: loopback, while the API
// listens on loopback alone (then only people on this machine can register endpoints), and private
// networks, with CALLBACK_ALLOW_PRIVATE_NETWORKS. Link-local and cloud-metadata addresses are refused
// always. Used at registration by the server and again at each delivery, where the worker connects to the
// addresses checked here so a DNS answer that changes in between (rebinding) cannot redirect the callback.

import { lookup } from 'node:dns/promises';
import { answerWithin, late } from './answer-within.js';
import { isIP } from 'node:net';
import { nonPublicRangeOf } from './ip-address-ranges.js';
import type { NonPublicRange } from './ip-address-ranges.js';

/** One address a host name resolved to. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** Resolves a host name to every address it has; the default asks the system resolver. */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface CallbackUrlPolicy {
  readonly mode: 'sandbox' | 'live';
  /** Allows private networks (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7) and loopback. */
  readonly allowPrivateNetworks: boolean;
  /** Allows loopback (127/8, ::1): for a service whose API only this machine can reach. */
  readonly allowLoopback: boolean;
  readonly resolve?: HostResolver;
  /** Longest wait for the resolver, in ms; default 5000 (a request or a delivery waits on it). */
  readonly resolveTimeoutMs?: number;
}

const defaultResolveTimeoutMs = 5_000;

export type CallbackUrlCheck =
  | {
      readonly ok: true;
      readonly url: URL;
      readonly addresses: readonly ResolvedAddress[];
      /**
       * Whether every address is public. Only a public receiver's answers are shown to callers: another
       * one's would let a caller read, or map, a network the operator let callbacks reach.
       */
      readonly public: boolean;
    }
  | { readonly ok: false; readonly problem: string };

const systemResolver: HostResolver = async (hostname) => {
  const found = await lookup(hostname, { all: true, verbatim: true });
  return found.map((entry) => ({ address: entry.address, family: entry.family === 6 ? 6 : 4 }));
};

function refuse(problem: string): CallbackUrlCheck {
  return { ok: false, problem };
}

/** Whether the policy lets a callback reach an address in `range`. */
function reachable(range: NonPublicRange, policy: CallbackUrlPolicy): boolean {
  switch (range.kind) {
    case 'loopback':
      return policy.allowLoopback || policy.allowPrivateNetworks;
    case 'private':
    case 'unique-local':
      return policy.allowPrivateNetworks;
    default:
      return false;
  }
}

/** Why an address in `range` was refused, for the operator's log and the CLI. */
function refusalReason(range: NonPublicRange): string {
  switch (range.kind) {
    case 'loopback':
      return 'allowed only while the API listens on loopback alone, or with CALLBACK_ALLOW_PRIVATE_NETWORKS=true';
    case 'private':
    case 'unique-local':
      return 'allowed only with CALLBACK_ALLOW_PRIVATE_NETWORKS=true';
    default:
      return 'never allowed';
  }
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
  let allPublic = true;
  for (const { address } of resolved.addresses) {
    const range = nonPublicRangeOf(address);
    if (range === undefined) continue;
    allPublic = false;
    if (!reachable(range, policy)) {
      const via = address === hostname ? address : `${hostname}, which resolves to ${address}`;
      return refuse(
        `expected a host with public addresses only, received ${via} (${range.kind}, ${range.cidr}: ${refusalReason(range)})`,
      );
    }
  }
  return { ok: true, url: parsed, addresses: resolved.addresses, public: allPublic };
}
