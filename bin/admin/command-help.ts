import type { AdminCommand, OptionSpec } from './admin-command';

/** The operator CLI's help and usage lines, generated from the command table. */

const width = 100;
export const invocation = 'npm run admin --';

/**
 * `units` joined by spaces on lines of at most `width` characters, a unit never split: the first
 * line starts with `first`, the others with `rest`.
 */
function wrap(units: readonly string[], first: string, rest = first): string[] {
  const lines: string[] = [];
  let line = '';
  for (const unit of units) {
    const indent = lines.length === 0 ? first : rest;
    if (line !== '' && indent.length + line.length + 1 + unit.length > width) {
      lines.push(indent + line);
      line = unit;
    } else {
      line = line === '' ? unit : `${line} ${unit}`;
    }
  }
  if (line !== '') lines.push((lines.length === 0 ? first : rest) + line);
  return lines;
}

const words = (text: string) => text.split(' ');

function optionUsage(option: OptionSpec): string {
  const text = option.value === undefined ? `--${option.name}` : `--${option.name} ${option.value}`;
  return option.required ? text : `[${text}]`;
}

/** `create-key --org <org_id> --email <email> --role <role>`: the command as it is called. */
export function usageLine(command: AdminCommand): string {
  return usageUnits(command).join(' ');
}

function usageUnits(command: AdminCommand): string[] {
  return [
    command.name,
    ...(command.args ?? []).map((argument) => argument.name),
    ...command.options.map(optionUsage),
  ];
}

function optionHelp(option: OptionSpec): string | undefined {
  return option.help ?? (option.choices ? `one of ${option.choices.join(', ')}` : undefined);
}

/** One command's help: its usage line, what it does and what its options mean. */
export function commandHelp(command: AdminCommand): string {
  // Continued usage lines line up under the first option.
  const lines = wrap(usageUnits(command), '  ', ' '.repeat(3 + command.name.length));
  lines.push(...wrap(words(command.summary), '      '));
  for (const option of command.options) {
    const help = optionHelp(option);
    if (help === undefined) continue;
    const name = optionUsage(option).replace(/^\[|\]$/g, '');
    lines.push(...wrap([`${name}:`, ...words(help)], '        ', '          '));
  }
  return lines.join('\n');
}

/** What a usage mistake prints after the line naming it: the command's usage, and where to read more. */
export function usageReminder(command: AdminCommand | null): string {
  if (command === null) return `usage: ${invocation} <command> [options]\nsee ${invocation} --help`;
  return `usage: ${invocation} ${usageLine(command)}\nsee ${invocation} ${command.name} --help`;
}

const notes = `Target: the local store under LOCAL_DIR (default .local), or the deployed table named by
TABLE_NAME (with AWS credentials and AWS_REGION). On AWS, commands that create or revoke keys also
need USAGE_PLAN_ID (the API stack's TenantUsagePlanId output): each key gets its own throttle
bucket there, and the deployed API refuses a key that has none (docs/deploy.md). Locally there is
no usage plan: register-usage-key has nothing to register.
API keys are printed once: only their hash is stored.
Purchases (docs/purchases.md): locally, retry-purchase and dead-letters --redrive run the
purchase pipeline in this process and wait until it is done; on AWS they send to the queue named
by PURCHASE_QUEUE_URL (dead letters: PURCHASE_DLQ_URL). Locally dead letters live in the server's
memory, so dead-letters lists the purchases that are stuck (what the DLQ would hold) and
--redrive sends them again now. Locally the simulated marketplace buys every offer, so no
purchase is manual and complete-purchase has nothing to complete.
Imports (file formats: docs/import.md) print progress on stderr; a file with any bad row is
rejected whole, its errors listed by line number, and nothing of it is stored. An import of an
org and provider another import holds open is refused unless --take-over. At the end, an import
computes the plans of the providers it changed.
Output: each command prints one JSON object on stdout; progress and logs go to stderr (pipe it
with npm run -s admin -- ..., which keeps npm's banner off stdout). Exit
codes: 0 done, 1 failed (the reason on stderr), 2 a usage mistake or a missing setting (the
command's usage line on stderr).`;

/** The whole help: every command of the table, then how the CLI works. */
export function fullHelp(table: readonly AdminCommand[]): string {
  return [
    `Usage: ${invocation} <command> [options]`,
    `       ${invocation} <command> --help`,
    '',
    'Commands:',
    '',
    table.map(commandHelp).join('\n\n'),
    '',
    notes,
  ].join('\n');
}
