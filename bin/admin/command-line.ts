import { parseArgs } from 'node:util';
import { type AdminCommand, type CommandInput, required, UsageError } from './admin-command';

/**
 * The operator CLI's parser: finds the command in the table, then reads the options and
 * arguments that command declares, refusing any other (exit code 2, bin/admin.ts) before the
 * command runs.
 */

/** The command named by the first words of `argv` (two for a family: `simulate-cloud aws`). */
export function findCommand(
  table: readonly AdminCommand[],
  argv: readonly string[],
): { readonly command: AdminCommand; readonly rest: readonly string[] } {
  const [first = '', second] = argv;
  const byName = (name: string) => table.find((command) => command.name === name);
  const pair = second === undefined ? undefined : byName(`${first} ${second}`);
  if (pair) return { command: pair, rest: argv.slice(2) };
  const single = byName(first);
  if (single) return { command: single, rest: argv.slice(1) };
  const family = table
    .filter((command) => command.name.startsWith(`${first} `))
    .map((command) => command.name.slice(first.length + 1));
  if (family.length > 0) {
    const choices = `${family.slice(0, -1).join(', ')} or ${family.at(-1)}`;
    throw new UsageError(`${first} needs ${choices}`);
  }
  if (first.startsWith('-')) throw new UsageError(`the command comes first, then ${first}`);
  throw new UsageError(`unknown command ${first}`);
}

export type ParsedCommand = { readonly help: true } | { readonly help: false; readonly input: CommandInput };

/** Reads the command's options and arguments from what follows its name. */
export function parseCommand(command: AdminCommand, rest: readonly string[]): ParsedCommand {
  const specs = new Map(command.options.map((option) => [option.name, option]));
  const { values, positionals, tokens } = parseArgs({
    args: [...rest],
    allowPositionals: true,
    strict: false,
    tokens: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      ...Object.fromEntries(
        command.options.map((option) => [
          option.name,
          { type: option.value === undefined ? ('boolean' as const) : ('string' as const) },
        ]),
      ),
    },
  });
  if (values.help === true) return { help: true };
  for (const token of tokens) {
    if (token.kind !== 'option' || token.name === 'help') continue;
    const spec = specs.get(token.name);
    if (!spec) throw new UsageError(`unknown option ${token.rawName} for ${command.name}`);
    if (spec.value === undefined && token.value !== undefined) {
      throw new UsageError(`${token.rawName} takes no value`);
    }
    // Without strict parsing, a missing value would take the next option as the value.
    if (
      spec.value !== undefined &&
      (token.value === undefined || (!token.inlineValue && token.value.startsWith('--')))
    ) {
      throw new UsageError(`${token.rawName} needs a value: ${spec.value}`);
    }
  }
  const expected = command.args ?? [];
  const extra = positionals[expected.length];
  if (extra !== undefined) {
    throw new UsageError(
      extra.startsWith('cpk_')
        ? `${command.name} takes ${expected.length} argument(s); an API key is not one of them`
        : `unexpected argument ${extra} (quote a value with spaces)`,
    );
  }
  const missing = expected[positionals.length];
  if (missing !== undefined) throw new UsageError(`${command.name} needs ${missing.name}`);
  for (const [index, argument] of expected.entries()) argument.check?.(positionals[index] ?? '');
  for (const spec of command.options) {
    const value = values[spec.name];
    if (spec.required) required(values, spec.name);
    if (spec.choices && typeof value === 'string' && !spec.choices.includes(value.trim())) {
      throw new UsageError(`--${spec.name} must be one of ${spec.choices.join(', ')}; got ${value}`);
    }
    if (spec.check && typeof value === 'string') spec.check(value.trim());
  }
  return { help: false, input: { options: trimmed(values), args: positionals } };
}

function trimmed(values: CommandInput['options']): CommandInput['options'] {
  return Object.fromEntries(
    Object.entries(values).map(([name, value]) => [name, typeof value === 'string' ? value.trim() : value]),
  );
}
