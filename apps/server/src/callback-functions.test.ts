import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '@topup/ledger';
import { startTestService } from './testing/test-service.js';
import type { TestService } from './testing/test-service.js';
import { openTestStores } from './testing/test-stores.js';
import { envelopeOf } from './testing/wire.js';

describe.each(openTestStores())('callback endpoint functions on $name', (stores) => {
  let store: Store;
  let service: TestService;

  beforeAll(async () => {
    store = await stores.open();
    service = await startTestService(store);
  });

  afterAll(async () => {
    await service.stop();
    await stores.close(store);
  });

  it('adds an endpoint showing its secret once, and lists it without the secret', async () => {
    const { token } = await service.createCaller();
    const added = await envelopeOf(
      await service.call('add_callback_endpoint', {
        token,
        json: { url: 'http://127.0.0.1:9/hooks', format: 'xml', description: 'ops' },
      }),
    );
    expect(added.status).toEqual({ type: 'SUCCESS', code: '0000', message: 'Callback endpoint added' });
    const endpoint = added.data.endpoint as { id: string; secret: string; format: string };
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint.format).toBe('xml');
    const listed = await service.call('list_callback_endpoints', { token });
    const text = await listed.text();
    expect(text).toContain(endpoint.id);
    expect(text).not.toContain(endpoint.secret);
  });

  it('rotates a secret and removes an endpoint; another caller’s endpoint is invalid', async () => {
    const owner = await service.createCaller();
    const other = await service.createCaller();
    const added = await envelopeOf(
      await service.call('add_callback_endpoint', {
        token: owner.token,
        json: { url: 'http://127.0.0.1:9/a' },
      }),
    );
    const { id, secret } = added.data.endpoint as { id: string; secret: string };
    const rotated = await envelopeOf(
      await service.call('rotate_callback_secret', { token: owner.token, json: { endpoint_id: id } }),
    );
    expect((rotated.data.endpoint as { secret: string }).secret).not.toBe(secret);
    const stranger = await service.call('remove_callback_endpoint', {
      token: other.token,
      json: { endpoint_id: id },
    });
    expect(stranger.status).toBe(422);
    expect((await envelopeOf(stranger)).data.errors).toEqual(["'endpoint_id is invalid'"]);
    const removed = await service.call('remove_callback_endpoint', {
      token: owner.token,
      json: { endpoint_id: id },
    });
    expect((await envelopeOf(removed)).status.code).toBe('0000');
  });

  it('refuses a URL with credentials, checked by the callback URL policy', async () => {
    const { token } = await service.createCaller();
    const response = await service.call('add_callback_endpoint', {
      token,
      json: { url: 'https://user:pass@127.0.0.1/hooks' },
    });
    expect(response.status).toBe(422);
    expect((await envelopeOf(response)).data.errors).toEqual(["'url is invalid'"]);
  });

  it('refuses a URL that is not http(s) with the contract’s string', async () => {
    const { token } = await service.createCaller();
    const response = await service.call('add_callback_endpoint', {
      token,
      json: { url: 'ftp://example.com/x' },
    });
    expect(response.status).toBe(422);
    expect((await envelopeOf(response)).data.errors).toEqual(["'url is invalid'"]);
  });
});
