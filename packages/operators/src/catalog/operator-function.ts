// What the catalog says of one operator function: its input schema and answer type, who may call it,
// whether it changes anything (and so is an admin's, and audited), whether it needs the password typed
// again, and how the CLI spells it. The console's types, its API's routes and the CLI's commands and help
// are all read from these entries, so an operator function is added in one place (plus its
// implementation). Pure: no store, no Node, so the console's build can read its types.

import type { z } from 'zod';

/** `read`: any operator may call it. `change`: admins only, and every change is audited. */
export type Access = 'read' | 'change';

/** Carries an answer's type in the catalog; it holds no value. */
export interface Answer<T> {
  readonly answer?: T;
}

/** Declares a function's answer type: `answer: answerOf<{ accounts: AccountView[] }>()`. */
export function answerOf<T>(): Answer<T> {
  return {};
}

/** How the CLI spells an operator function: a command, the options it reads, what it prints. */
export interface CliSpelling<I, A> {
  /** The command's words, e.g. `account suspend`. */
  readonly command: string;
  /** What the command does, one line of the help. */
  readonly summary: string;
  /** Inputs the command sets itself (`account suspend` sets `status`). */
  readonly fixed?: Partial<I>;
  /** Inputs the command takes when their option is not given (`account create` issues a test token). */
  readonly defaults?: Partial<I>;
  /** Option names other than the input field's in kebab case (`endpoint_id` as `--endpoint`). */
  readonly options?: { readonly [K in keyof I]?: string };
  /** What a person reads. */
  readonly human: (answer: A, input: I) => string;
  /** What `--json` prints, when not the answer itself. */
  readonly json?: (answer: A, input: I) => unknown;
  /** Whether the answer means the command failed (exit 1), as a breached ledger does. */
  readonly fails?: (answer: A) => boolean;
}

export interface OperatorFunctionSpec<S extends z.ZodObject, A> {
  /** What it does, for the documentation. */
  readonly summary: string;
  readonly input: S;
  readonly answer: Answer<A>;
  readonly access: Access;
  /**
   * Reveals a secret or moves money: in the console, the password must have been typed again lately. A
   * function of the input when only some calls do (creating an account reveals a token only when asked).
   */
  readonly reauthenticate: boolean | ((input: z.output<S>) => boolean);
  /**
   * Fields only the CLI may set, e.g. who established a leg's fate with its provider; the console's user
   * is who they are.
   */
  readonly cliOnly?: readonly (keyof z.output<S> & string)[];
  /**
   * The CLI's commands for it; none for what only a signed-in admin in the console may do (approvals:
   * the CLI never approves).
   */
  readonly cli: readonly CliSpelling<z.output<S>, A>[];
}

/** One catalog entry, with its input and answer types kept for the catalog's readers. */
export function operatorFunction<S extends z.ZodObject, A>(
  spec: OperatorFunctionSpec<S, A>,
): OperatorFunctionSpec<S, A> {
  return spec;
}
