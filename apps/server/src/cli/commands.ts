// The operator CLI's commands, read from the operator catalog of @topup/operators: each entry's CLI
// spellings are commands, their options are the entry's input fields (in kebab case unless the spelling
// names them), what they print is the spelling's, and the help is written from the same entries, so a
// new operator function reaches the CLI with its catalog entry. `migrate` is the one command of its own:
// it runs before any operator function can.

import {
  callOperatorFunction,
  operatorCatalog,
  type CliSpelling,
  type OperatorContext,
} from '@topup/operators';
import { migrateService } from '@topup/service';
import type { z } from 'zod';
import type { CommandResult } from './cli-output.js';
import { UsageError } from './cli-output.js';

export type Options = Readonly<Record<string, string | boolean | undefined>>;

/** Options every command takes, which are not an operator function's input. */
const commonOptions = new Set(['json', 'help']);

export interface Command {
  /** Its words, e.g. `account create`. */
  readonly name: string;
  /** Its line in the help: the words and options. */
  readonly synopsis: string;
  readonly summary: string;
  /** The options it reads, each with the input field it fills. */
  readonly options: ReadonlyMap<string, string>;
  run(context: OperatorContext, options: Options): Promise<CommandResult>;
}

type AnySpelling = CliSpelling<Record<string, unknown>, unknown>;

function kebab(field: string): string {
  return field.replaceAll('_', '-');
}

/** The values an enum field takes (through `.optional()` and `.default()`), or undefined for free text. */
function valuesOf(schema: z.ZodType): readonly string[] | undefined {
  const def = schema.def as { type: string; innerType?: z.ZodType; entries?: Record<string, string> };
  if ((def.type === 'optional' || def.type === 'default') && def.innerType !== undefined)
    return valuesOf(def.innerType);
  return def.type === 'enum' && def.entries !== undefined ? Object.values(def.entries) : undefined;
}

/** `a, b or c`. */
function alternatives(values: readonly string[]): string {
  return values.length < 2 ? values.join('') : `${values.slice(0, -1).join(', ')} or ${values.at(-1) ?? ''}`;
}

/** What the command line got wrong, one sentence per field, naming the option. */
function usageProblems(
  error: z.ZodError,
  given: Record<string, unknown>,
  optionOf: (field: string) => string,
) {
  return error.issues.map((issue) => {
    const field = String(issue.path[0] ?? '');
    const option = `--${optionOf(field)}`;
    const value = given[field];
    if (value === undefined) return `${option} is required`;
    const values = 'values' in issue ? (issue.values as unknown[]).map(String) : undefined;
    if (values !== undefined)
      return `${option} must be ${alternatives(values)}, received ${JSON.stringify(value)}`;
    return `${option}: ${issue.message}, received ${JSON.stringify(value)}`;
  });
}

function operatorCommand(functionName: string, input: z.ZodObject, spelling: AnySpelling): Command {
  const fixed: Record<string, unknown> = { ...spelling.fixed };
  const defaults: Record<string, unknown> = { ...spelling.defaults };
  const renamed = (spelling.options ?? {}) as Record<string, string | undefined>;
  const optionOf = (field: string) => renamed[field] ?? kebab(field);
  const fields = Object.entries(input.shape as Record<string, z.ZodType>).filter(
    ([field]) => !Object.hasOwn(fixed, field),
  );
  const options = new Map(fields.map(([field]) => [optionOf(field), field]));
  const synopsis = [
    spelling.command,
    ...fields.map(([field, schema]) => {
      const option = optionOf(field);
      const shown = `--${option} ${valuesOf(schema)?.join('|') ?? option.toUpperCase().replaceAll('-', '_')}`;
      const optional = schema.safeParse(undefined).success || Object.hasOwn(defaults, field);
      return optional ? `[${shown}]` : shown;
    }),
  ].join(' ');
  return {
    name: spelling.command,
    synopsis,
    summary: spelling.summary,
    options,
    async run(context, given) {
      const body: Record<string, unknown> = { ...defaults };
      for (const [option, field] of options) {
        const value = given[option];
        if (typeof value === 'string') body[field] = value;
      }
      Object.assign(body, fixed);
      const parsed = input.safeParse(body);
      if (!parsed.success) throw new UsageError(usageProblems(parsed.error, body, optionOf).join('; '));
      // The CLI runs on the store itself, as its system user: trusted like an admin who has just typed
      // the password again, but never to approve (the catalog gives approvals no CLI spelling).
      const answer = await callOperatorFunction(context, functionName, body, { reauthenticated: true });
      return {
        json: spelling.json === undefined ? answer : spelling.json(answer, parsed.data),
        human: spelling.human(answer, parsed.data),
        failed: spelling.fails?.(answer) ?? false,
      };
    },
  };
}

const migrateCommand: Command = {
  name: 'migrate',
  synopsis: 'migrate',
  summary: 'applies pending migrations and lists them',
  options: new Map(),
  async run({ store }) {
    const { applied } = await migrateService(store);
    return {
      json: { applied },
      human: applied.length === 0 ? 'Schema is up to date.' : `Applied: ${applied.join(', ')}`,
      failed: false,
    };
  },
};

/** Every command, by its words: the catalog's, then `migrate`. */
export const commands: ReadonlyMap<string, Command> = new Map(
  [
    ...Object.entries(operatorCatalog).flatMap(([name, spec]) =>
      (spec.cli as readonly AnySpelling[]).map((spelling) => operatorCommand(name, spec.input, spelling)),
    ),
    migrateCommand,
  ].map((command) => [command.name, command]),
);

/** Every option any command reads, for the command line's parser. */
export const optionNames: readonly string[] = [
  ...new Set([...commands.values()].flatMap((command) => [...command.options.keys()])),
];

/** The command `name` with options it reads, or a usage error naming what is wrong. */
export function commandFor(name: string, options: Options): Command {
  const command = commands.get(name);
  if (command === undefined)
    throw new UsageError(name === '' ? 'a command is required' : `unknown command ${JSON.stringify(name)}`);
  const foreign = Object.keys(options).filter(
    (option) => options[option] !== undefined && !commonOptions.has(option) && !command.options.has(option),
  );
  if (foreign.length > 0)
    throw new UsageError(`${foreign.map((option) => `--${option}`).join(', ')} is not an option of ${name}`);
  return command;
}

export const usage = `Usage: topup <command> [options] [--json]

Commands:
${[...commands.values()].map((command) => `  ${command.synopsis}\n      ${command.summary}`).join('\n')}

While \`pnpm start\` runs on the embedded store, commands are run by the service itself. Whatever a command
changes is audited as cli:<the system user of the process that runs it>.
`;
