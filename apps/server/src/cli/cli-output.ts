// How the CLI speaks: human-readable lines by default, one JSON document with --json, and usage errors
// that say what was expected and what was received.

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface CommandResult {
  /** What `--json` prints. */
  readonly json: unknown;
  /** What a person reads. */
  readonly human: string;
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
