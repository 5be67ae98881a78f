// What this package's tests call operator functions with: a console user's or the CLI's context on a
// store, the rules of a service that takes https callbacks only, and a way to catch an OperatorError.

import type { Ledger, Store } from '@topup/ledger';
import { expect } from 'vitest';
import { callOperatorFunction } from '../call-operator-function.js';
import { OperatorError } from '../operator-error.js';
import { cliActor, type OperatorActor, type OperatorContext } from '../operator-context.js';

/** Where the tests' sign-ins come from. */
export const attempt = { address: '192.0.2.7' };

/** The rules of a service that takes https callbacks only, with at most two endpoints an account. */
export const callbacks = {
  urlProblem: (url: string) => Promise.resolve(url.startsWith('https://') ? undefined : 'expected https'),
  maxEndpoints: 2,
  secretGraceSeconds: 60,
};

export function contextOf(ledger: Ledger, store: Store, actor: OperatorActor): OperatorContext {
  return {
    ledger,
    store,
    actor,
    fundingApprovalThresholdMinor: 100_000n,
    signInUrl: (token) => `http://127.0.0.1/console/link#token=${token}`,
    callbacks,
    now: () => new Date(),
  };
}

/** A console user's context; by default their account was made long before anything they approve. */
export function consoleContext(
  ledger: Ledger,
  store: Store,
  email: string,
  role: 'admin' | 'support' = 'admin',
  since = new Date(0),
): OperatorContext {
  return contextOf(ledger, store, { kind: 'console', name: email, role, since });
}

/** The CLI's context, run by the system user `systemUser`. */
export function cliContext(ledger: Ledger, store: Store, systemUser = 'ops'): OperatorContext {
  return contextOf(ledger, store, cliActor(systemUser));
}

/** Calls an operator function as a user who has just typed their password again. */
export function call<T>(context: OperatorContext, name: string, body: unknown = {}): Promise<T> {
  return callOperatorFunction(context, name, body, { reauthenticated: true }) as Promise<T>;
}

export async function failure(promise: Promise<unknown>): Promise<OperatorError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(OperatorError);
  return error as OperatorError;
}
