// How the CLI speaks: human-readable lines by default, one JSON document with --json (for failures too,
// on stderr), and usage errors that say what was expected and what was received.

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * The code a script tests of a failure (kind `failure`, exit 1): the finest one the failing component
 * gives, e.g. an OperatorError's `endpoint_not_found` rather than its `not_found`, or a LedgerError's.
 */
export function failureCode(error: unknown): string | undefined {
  const { code, reason } = (error ?? {}) as { code?: unknown; reason?: unknown };
  if (typeof reason === 'string') return reason;
  return typeof code === 'string' ? code : undefined;
}

export interface CommandResult {
  /** What `--json` prints. */
  readonly json: unknown;
  /** What a person reads. */
  readonly human: string;
  /** The command ran but its answer is a failure (exit 1), as a breached ledger is. */
  readonly failed: boolean;
}

/**
 * A reader that stops early (`topup account list | head`) closes the pipe under the CLI. That is the
 * reader's choice, not the command's failure, so the output it did not want is dropped without a stack
 * trace, and the command still closes its store and exits with its own code.
 */
export function dropOutputOnClosedPipe(): void {
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' && error.code !== 'ERR_STREAM_DESTROYED') throw error;
  });
}

export function printResult(result: CommandResult, asJson: boolean): void {
  const text = asJson
    ? JSON.stringify(
        result.json,
        (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value),
        2,
      )
    : result.human;
  process.stdout.write(`${text}\n`);
}

/** A failure as the CLI reports it; `kind` tells a script a usage mistake from a configuration or a failure. */
export interface CliError {
  readonly kind: 'usage' | 'configuration' | 'store-locked' | 'failure';
  readonly message: string;
  /** The failing component's own code, e.g. a LedgerError's `account_not_found`. */
  readonly code?: string;
  readonly problems?: readonly string[];
}

/** Writes a failure to stderr: `{"error": {...}}` with --json, else a line (and the usage, if given). */
export function printError(error: CliError, asJson: boolean, usage?: string): void {
  if (asJson) {
    process.stderr.write(`${JSON.stringify({ error }, null, 2)}\n`);
    return;
  }
  process.stderr.write(`topup: ${error.message}\n${usage === undefined ? '' : `\n${usage}`}`);
}
