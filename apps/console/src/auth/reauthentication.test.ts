import { describe, expect, it, vi } from 'vitest';
import { ConsoleApiError } from '../api/console-api-error';
import { withReauthentication } from './reauthentication';

const reauthenticationRequired = new ConsoleApiError(403, 'reauthentication_required', 'Enter your password');

describe('withReauthentication', () => {
  it('runs the action once when it needs nothing more', async () => {
    const action = vi.fn(() => Promise.resolve('done'));
    const ask = vi.fn(() => Promise.resolve(true));
    await expect(withReauthentication(action, ask)).resolves.toBe('done');
    expect(ask).not.toHaveBeenCalled();
  });

  it('asks for the password and tries again when the server wants it', async () => {
    const action = vi.fn<() => Promise<string>>();
    action.mockRejectedValueOnce(reauthenticationRequired).mockResolvedValueOnce('done');
    const ask = vi.fn(() => Promise.resolve(true));
    await expect(withReauthentication(action, ask)).resolves.toBe('done');
    expect(ask).toHaveBeenCalledOnce();
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('leaves the change undone when the user cancels', async () => {
    const action = vi.fn(() => Promise.reject(reauthenticationRequired));
    await expect(withReauthentication(action, () => Promise.resolve(false))).rejects.toBe(
      reauthenticationRequired,
    );
    expect(action).toHaveBeenCalledOnce();
  });

  it('never asks for the password over another failure', async () => {
    const forbidden = new ConsoleApiError(403, 'forbidden', 'Support is read-only');
    const ask = vi.fn(() => Promise.resolve(true));
    await expect(withReauthentication(() => Promise.reject(forbidden), ask)).rejects.toBe(forbidden);
    expect(ask).not.toHaveBeenCalled();
  });
});
