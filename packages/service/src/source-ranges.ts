// Who may call the provider webhook routes: IP addresses or CIDR ranges, comma-separated, read into what
// `net.BlockList` takes. Shared by PROVIDER_WEBHOOK_SOURCES and each provider's own list.

import { isIP } from 'node:net';
import { z } from 'zod';

export const sourceList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
  )
  .refine((entries) => entries.every((entry) => sourceRange(entry) !== undefined), {
    error: 'expected IP addresses or CIDR ranges, comma-separated (e.g. 196.201.214.0/24,2001:db8::/32)',
  });

/** An address or CIDR range as `net.BlockList` takes it, or undefined when it is neither. */
export function sourceRange(
  entry: string,
): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address = '', prefixText] = entry.split('/');
  const version = isIP(address);
  if (version === 0) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText ?? String(max)) || prefix > max) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}
