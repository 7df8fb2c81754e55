/**
 * The operator CLI: `npm run admin -- <command> [options]`. Each command prints its result as one
 * JSON object on stdout; progress and logs go to stderr; a failure is one line on stderr with exit
 * code 1, a usage mistake or a missing setting exit code 2 (README.md, "Operator CLI").
 *
 * It works on the local store (also while `npm start` runs: both use the same engine), or, when
 * TABLE_NAME is set, on that deployed DynamoDB table with the usual AWS credentials and region.
 */
import { CsvImportError, formatCsvLineError } from '../shared/domain/csv/csv-import-error';
import { DomainError, NotFoundError } from '../shared/domain/errors';
import {
  type AdminCommand,
  type AdminTarget,
  type CommandInput,
  SetupError,
  UsageError,
} from './admin/admin-command';
import { reserveStdoutForAnswer } from './admin/answer-output';
import { commandHelp, fullHelp, usageReminder } from './admin/command-help';
import { findCommand, parseCommand } from './admin/command-line';
import { commandTable } from './admin/command-table';
import { InputFileError } from './admin/input-file';

const output = reserveStdoutForAnswer();

/**
 * The composition the command runs on: the deployed table when TABLE_NAME names one, else the
 * local store. Each is imported when chosen: the other's packages are never loaded.
 */
async function openTarget(command: AdminCommand): Promise<AdminTarget> {
  if (process.env.TABLE_NAME) {
    const { openAwsTarget } = await import('./admin/aws-target');
    return openAwsTarget(process.env, command.needs);
  }
  const { openLocalTarget } = await import('./admin/local-target');
  return openLocalTarget(process.env, command.needs);
}

/**
 * Every command taking `--org` refuses an org the store does not have in the same words, before it
 * runs: a listing would otherwise answer an empty list, as if the org had nothing.
 */
async function refuseUnknownOrg(command: AdminCommand, input: CommandInput, target: AdminTarget) {
  const orgId = input.options.org;
  const store = target.dependencies.store;
  if (typeof orgId !== 'string' || !command.options.some((option) => option.name === 'org')) return;
  // Every command with --org declares the store (test/unit/admin/org-option.test.ts).
  if ((await store.ctx.repos.orgs.get(orgId)) === null) {
    throw new NotFoundError(`Organization ${orgId} not found`);
  }
}

/** One line on stderr, the command's usage after a usage mistake; answers the exit code. */
function reportFailure(error: unknown, command: AdminCommand | null): number {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof SetupError) {
    console.error(`admin: ${message}`);
    return 2;
  }
  if (error instanceof UsageError) {
    console.error(`admin: ${message}\n${usageReminder(command)}`);
    return 2;
  }
  if (error instanceof CsvImportError) {
    for (const lineError of error.errors) console.error(formatCsvLineError(lineError));
    const unlisted = error.errorCount - error.errors.length;
    if (unlisted > 0) console.error(`... and ${unlisted} more`);
  }
  const plain = error instanceof DomainError || error instanceof InputFileError;
  console.error(`admin: ${plain ? message : `failed: ${message}`}`);
  return 1;
}

async function main(argv: readonly string[]): Promise<number> {
  const [first] = argv;
  if (first === undefined || first === '--help' || first === '-h') {
    await output.print(fullHelp(commandTable));
    return first === undefined ? 2 : 0;
  }
  let command: AdminCommand | null = null;
  try {
    const found = findCommand(commandTable, argv);
    command = found.command;
    const parsed = parseCommand(command, found.rest);
    if (parsed.help) {
      await output.print(commandHelp(command));
      return 0;
    }
    const target = await openTarget(command);
    let result: object;
    try {
      await refuseUnknownOrg(command, parsed.input, target);
      result = await command.run(target.dependencies, parsed.input);
    } finally {
      await target.close();
    }
    await output.print(JSON.stringify(result));
    // A command that answered but did not do what was asked (a refresh that kept the last catalog) set it.
    return typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (error) {
    return reportFailure(error, command);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => process.exit(reportFailure(error, null)),
);
