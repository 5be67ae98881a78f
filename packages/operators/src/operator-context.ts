// What an operator function runs with: the store and ledger, who acts, and the service's rules that
// shape an answer (the funding threshold, where callbacks may go, where sign-in links point).

import type { ChangeOptions, Ledger, Queryable, Store } from '@topup/ledger';
import type { AuditEntry } from './audit-log.js';

/**
 * Who acts. A console user, by email, with the role and the time their account was made (an approval
 * needs an admin whose account existed before the request). Or the CLI: one actor, `cli:` and the
 * system user of the process that runs the command, never a name the command line chose.
 */
export type OperatorActor =
  | {
      readonly kind: 'console';
      readonly name: string;
      readonly role: 'admin' | 'support';
      /** When the user's account was made. */
      readonly since: Date;
    }
  | { readonly kind: 'cli'; readonly name: string; readonly systemUser: string };

/** The CLI's actor for the system user running it: trusted like an admin, but never approving. */
export function cliActor(systemUser: string): OperatorActor {
  return { kind: 'cli', name: `cli:${systemUser}`, systemUser };
}

/** The service's callback rules, as the API applies them to add_callback_endpoint. */
export interface CallbackRules {
  /** Why the URL policy refuses a callback URL, or undefined when it may be used. */
  readonly urlProblem: (url: string) => Promise<string | undefined>;
  /** Endpoints an account may have (CALLBACK_MAX_ENDPOINTS). */
  readonly maxEndpoints: number;
  /** How long a rotated secret stays valid (CALLBACK_SECRET_GRACE_SECONDS). */
  readonly secretGraceSeconds: number;
}

export interface OperatorContext {
  readonly ledger: Ledger;
  readonly store: Store;
  readonly actor: OperatorActor;
  /** Funding above this many cents in a day waits for a second admin. */
  readonly fundingApprovalThresholdMinor: bigint;
  /** The console address of a one-time sign-in link token. */
  readonly signInUrl: (token: string) => string;
  readonly callbacks: CallbackRules;
  readonly now: () => Date;
}

/**
 * What an audit record says beyond who acted: the target, before and after; the action is the function's
 * name unless said (a function that makes two changes names the second).
 */
export type AuditDetails = Omit<AuditEntry, 'actor' | 'action'> & { readonly action?: string };

/** One call of an operator function: its context, and how it audits what it changes. */
export interface OperatorCall extends OperatorContext {
  /** Writes the call's audit record inside `tx`, the transaction of the change it records. */
  readonly record: (tx: Queryable, details: AuditDetails) => Promise<void>;
  /** Ledger change options that write the call's audit record beside the change. */
  readonly audited: <R>(details: (result: R) => AuditDetails) => ChangeOptions<R>;
}
