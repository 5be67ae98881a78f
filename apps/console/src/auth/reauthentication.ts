// Runs a change that may need the password entered again: when the server answers
// `reauthentication_required`, the user is asked for the password once and the change is tried again.

import { needsReauthentication } from '../api/console-api-error';

/**
 * `askForPassword` resolves true once the password was accepted, false when the user gave up; then the
 * server's refusal stands and the change is not made.
 */
export async function withReauthentication<T>(
  action: () => Promise<T>,
  askForPassword: () => Promise<boolean>,
): Promise<T> {
  try {
    return await action();
  } catch (error) {
    if (!needsReauthentication(error) || !(await askForPassword())) throw error;
    return action();
  }
}
