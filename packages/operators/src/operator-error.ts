// The one error type of the console's rules. Its code decides the HTTP status the console API answers
// and the exit the CLI takes; its message says what was expected and what was received.

export type OperatorErrorCode =
  'invalid' | 'unauthenticated' | 'forbidden' | 'reauthentication_required' | 'not_found' | 'conflict';

export class OperatorError extends Error {
  constructor(
    readonly code: OperatorErrorCode,
    message: string,
    readonly problems: readonly string[] = [],
    /** A finer code for scripts, e.g. `endpoint_not_found`, which the CLI prints in place of `code`. */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'OperatorError';
  }
}
