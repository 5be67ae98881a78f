import { describe, expect, it, vi } from 'vitest';
import { callFunction } from './caller-functions';
import type { ConsoleHttp } from './console-http';

function httpAnswering(answer: unknown) {
  const post = vi.fn(() => Promise.resolve(answer));
  const http = { get: vi.fn(), post } as unknown as ConsoleHttp;
  return { http, post };
}

const balance = {
  status: { type: 'SUCCESS', code: '0000', message: 'Balance found' },
  data: { errors: [], channels: [] },
};

describe('callFunction', () => {
  it('calls the function for the session’s own account', async () => {
    const { http, post } = httpAnswering(balance);
    await expect(callFunction(http, 'get_balance', {})).resolves.toEqual({
      message: 'Balance found',
      data: balance.data,
    });
    expect(post).toHaveBeenCalledWith('/console/api/call/get_balance', {}, { headers: {} });
  });

  it('names the account an operator looks at', async () => {
    const { http, post } = httpAnswering(balance);
    await callFunction(http, 'get_balance', {}, 'acc_1');
    expect(post).toHaveBeenCalledWith(
      '/console/api/call/get_balance',
      {},
      { headers: { 'X-Topup-Account': 'acc_1' } },
    );
  });

  it('fails with the envelope’s code and errors when the envelope failed', async () => {
    const { http } = httpAnswering({
      status: { type: 'FAIL', code: '3000', message: 'Missing or Invalid Parameters' },
      data: { errors: ["'reference is required.'"] },
    });
    await expect(callFunction(http, 'get_transaction', { reference: '' })).rejects.toMatchObject({
      code: '3000',
      problems: ["'reference is required.'"],
    });
  });
});
