import { describe, expect, it } from 'vitest';
import { checkCallbackUrl } from './callback-url-policy.js';
import type { HostResolver, ResolvedAddress } from './callback-url-policy.js';

function resolverOf(table: Record<string, readonly string[]>): HostResolver & { asked: string[] } {
  const asked: string[] = [];
  const resolve = (hostname: string): Promise<readonly ResolvedAddress[]> => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (addresses === undefined) {
      return Promise.reject(
        Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }),
      );
    }
    return Promise.resolve(addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return Object.assign(resolve, { asked });
}

const live = (resolve: HostResolver) => ({
  mode: 'live' as const,
  allowPrivateNetworks: false,
  allowLoopback: false,
  resolve,
});
/** The sandbox of `pnpm start`: the API on loopback alone, no opt-in. */
const localSandbox = { mode: 'sandbox' as const, allowPrivateNetworks: false, allowLoopback: true };
/** A sandbox others can reach (HOST=0.0.0.0), no opt-in. */
const sharedSandbox = { mode: 'sandbox' as const, allowPrivateNetworks: false, allowLoopback: false };
/** Any mode, with CALLBACK_ALLOW_PRIVATE_NETWORKS=true. */
const optedIn = { mode: 'sandbox' as const, allowPrivateNetworks: true, allowLoopback: false };

describe('checkCallbackUrl', () => {
  it('accepts an https URL whose host resolves to public addresses, and returns those addresses', async () => {
    const resolve = resolverOf({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] });
    const check = await checkCallbackUrl('https://hooks.example.com/topup', live(resolve));
    expect(check).toMatchObject({
      ok: true,
      public: true,
      addresses: [
        { address: '93.184.216.34', family: 4 },
        { address: '2606:2800:220:1::1', family: 6 },
      ],
    });
    expect(resolve.asked).toEqual(['hooks.example.com']);
  });

  it('refuses an http URL in live mode', async () => {
    const check = await checkCallbackUrl(
      'http://hooks.example.com/',
      live(resolverOf({ 'hooks.example.com': ['93.184.216.34'] })),
    );
    expect(check).toEqual({ ok: false, problem: 'expected an https URL in live mode, received an http URL' });
  });

  it('accepts an http URL to a loopback receiver while the API listens on loopback alone, as not public', async () => {
    const check = await checkCallbackUrl('http://127.0.0.1:8080/hook', localSandbox);
    expect(check).toMatchObject({
      ok: true,
      public: false,
      addresses: [{ address: '127.0.0.1', family: 4 }],
    });
  });

  it.each([
    ['http://127.0.0.1:8080/hook', 'loopback'],
    ['http://[::1]:8080/hook', 'loopback'],
    ['http://10.0.0.8/', 'private'],
    ['http://100.64.1.1/', 'private'],
    ['http://[fd12::1]/', 'unique-local'],
  ])('refuses %s in a sandbox others can reach, without the opt-in (%s)', async (url, kind) => {
    const check = await checkCallbackUrl(url, sharedSandbox);
    expect(check.ok ? '' : check.problem).toContain(`(${kind},`);
  });

  it.each([
    'http://10.0.0.8/',
    'http://172.16.5.4/',
    'http://192.168.0.10/',
    'http://100.64.1.1/',
    'http://[fd12::1]/',
    'http://127.0.0.1/',
  ])('accepts %s with CALLBACK_ALLOW_PRIVATE_NETWORKS, as not public', async (url) => {
    expect(await checkCallbackUrl(url, optedIn)).toMatchObject({ ok: true, public: false });
  });

  it.each([
    ['http://10.0.0.8/', 'private'],
    ['http://192.168.1.1/', 'private'],
    ['http://[fc00::5]/', 'unique-local'],
  ])('refuses %s while only loopback is allowed (%s)', async (url, kind) => {
    const check = await checkCallbackUrl(url, localSandbox);
    expect(check.ok ? '' : check.problem).toContain(`(${kind},`);
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
    ['http://[fe80::1]/', 'link-local'],
    ['http://[fd00:ec2::254]/', 'cloud-metadata'],
    ['http://100.100.100.200/', 'cloud-metadata'],
    ['http://[::ffff:169.254.169.254]/', 'link-local'],
    ['http://0.0.0.0/', 'unspecified'],
    ['http://224.0.0.1/', 'multicast'],
  ])('refuses %s in every mode, even with every opt-in (%s)', async (url, kind) => {
    for (const policy of [localSandbox, sharedSandbox, optedIn, { ...optedIn, allowLoopback: true }]) {
      const check = await checkCallbackUrl(url, policy);
      expect(check.ok ? '' : check.problem).toContain(`(${kind},`);
      expect(check.ok ? '' : check.problem).toContain('never allowed');
    }
  });

  it.each([
    ['https://127.0.0.1/', 'loopback'],
    ['https://[::1]/', 'loopback'],
    ['https://10.0.0.8/', 'private'],
    ['https://172.16.5.4/', 'private'],
    ['https://192.168.0.10/', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'link-local'],
    ['https://0.0.0.0/', 'unspecified'],
    ['https://[fd00::1]/', 'unique-local'],
    ['https://[fe80::1]/', 'link-local'],
    ['https://[::ffff:127.0.0.1]/', 'loopback'],
    ['https://2130706433/', 'loopback'],
    ['https://0x7f.1/', 'loopback'],
  ])('refuses the literal address of %s in live mode (%s)', async (url, kind) => {
    const resolve = resolverOf({});
    const check = await checkCallbackUrl(url, live(resolve));
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.problem).toContain(`(${kind},`);
    expect(resolve.asked).toEqual([]);
  });

  it('refuses a name that resolves to a private address among public ones', async () => {
    const resolve = resolverOf({ 'rebind.example.com': ['93.184.216.34', '10.0.0.7'] });
    const check = await checkCallbackUrl('https://rebind.example.com/', live(resolve));
    expect(check).toEqual({
      ok: false,
      problem:
        'expected a host with public addresses only, received rebind.example.com, which resolves to 10.0.0.7 (private, 10.0.0.0/8: allowed only with CALLBACK_ALLOW_PRIVATE_NETWORKS=true)',
    });
  });

  it('refuses localhost by what it resolves to', async () => {
    const resolve = resolverOf({ localhost: ['::1', '127.0.0.1'] });
    const check = await checkCallbackUrl('https://localhost:9000/', live(resolve));
    expect(check.ok ? '' : check.problem).toContain('localhost, which resolves to ::1 (loopback, ::1/128:');
  });

  it('allows private addresses in live mode only when explicitly allowed, still requiring https', async () => {
    const resolve = resolverOf({ 'intranet.example': ['10.1.1.1'] });
    const policy = { ...live(resolve), allowPrivateNetworks: true };
    expect((await checkCallbackUrl('https://intranet.example/', policy)).ok).toBe(true);
    expect((await checkCallbackUrl('http://intranet.example/', policy)).ok).toBe(false);
  });

  it.each([
    ['not a url', 'expected an absolute http(s) URL, received "not a url"'],
    ['ftp://files.example.com/', 'expected an http or https URL, received a ftp: URL'],
    [
      'https://user:pw@hooks.example.com/',
      'expected a URL without a user name or password, received one with credentials',
    ],
  ])('refuses %s with a problem saying what was expected', async (url, problem) => {
    const check = await checkCallbackUrl(url, live(resolverOf({ 'hooks.example.com': ['93.184.216.34'] })));
    expect(check).toEqual({ ok: false, problem });
  });

  it('refuses a host that does not resolve, naming the resolver error', async () => {
    const check = await checkCallbackUrl('https://nowhere.invalid/', live(resolverOf({})));
    expect(check).toEqual({
      ok: false,
      problem: 'expected the host nowhere.invalid to resolve, received ENOTFOUND',
    });
  });

  it('refuses a host that resolves to no address', async () => {
    const check = await checkCallbackUrl('https://empty.example/', live(resolverOf({ 'empty.example': [] })));
    expect(check).toEqual({
      ok: false,
      problem: 'expected the host empty.example to resolve, received no address',
    });
  });

  it('refuses a host whose resolver does not answer in time, without waiting for it', async () => {
    const silent: HostResolver = () => new Promise(() => undefined);
    const started = Date.now();
    const check = await checkCallbackUrl('https://slow.example/', { ...live(silent), resolveTimeoutMs: 100 });
    expect(Date.now() - started).toBeLessThan(1_000);
    expect(check).toEqual({
      ok: false,
      problem: 'expected the host slow.example to resolve within 100 ms, received no answer',
    });
  });
});
