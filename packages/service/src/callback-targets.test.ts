import { describe, expect, it } from 'vitest';
import { callbackUrlPolicyOf, listensOnLoopbackAlone } from './callback-targets.js';
import { loadConfig } from './config.js';

describe('callback targets', () => {
  it.each(['127.0.0.1', '127.0.0.2', '::1', '[::1]', 'localhost', 'LOCALHOST'])(
    'counts %s as listening on loopback alone',
    (host) => {
      expect(listensOnLoopbackAlone(host)).toBe(true);
    },
  );

  it.each(['0.0.0.0', '::', '10.0.0.5', '192.168.1.2', 'api.example.com', '::ffff:127.0.0.1'])(
    'counts %s as reachable from other machines',
    (host) => {
      expect(listensOnLoopbackAlone(host)).toBe(false);
    },
  );

  it('allows loopback only while the API listens on loopback alone, and private networks only when opted in', () => {
    expect(callbackUrlPolicyOf(loadConfig({}))).toEqual({
      mode: 'sandbox',
      allowLoopback: true,
      allowPrivateNetworks: false,
    });
    expect(callbackUrlPolicyOf(loadConfig({ HOST: '0.0.0.0' }))).toEqual({
      mode: 'sandbox',
      allowLoopback: false,
      allowPrivateNetworks: false,
    });
    expect(
      callbackUrlPolicyOf(loadConfig({ HOST: '0.0.0.0', CALLBACK_ALLOW_PRIVATE_NETWORKS: 'true' })),
    ).toMatchObject({ allowLoopback: false, allowPrivateNetworks: true });
  });

  it('refuses a CALLBACK_ALLOW_PRIVATE_NETWORKS that is not true or false', () => {
    expect(() => loadConfig({ CALLBACK_ALLOW_PRIVATE_NETWORKS: 'yes' })).toThrow(
      /CALLBACK_ALLOW_PRIVATE_NETWORKS: expected true or false \(received "yes"\)/,
    );
  });
});
