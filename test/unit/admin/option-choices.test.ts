import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../bin/admin/admin-command';
import { commandHelp } from '../../../bin/admin/command-help';
import { parseCommand } from '../../../bin/admin/command-line';
import { commandTable } from '../../../bin/admin/command-table';

/**
 * Options with a closed set of values declare it in the command table (bin/admin/), so the parser
 * refuses any other value with the usage line (exit code 2) before the command runs.
 */

function command(name: string) {
  const found = commandTable.find((each) => each.name === name);
  if (!found) throw new Error(`no command ${name}`);
  return found;
}

describe('options with allowed values', () => {
  it('are declared as choices wherever the usage shows alternatives, never spelled out in the value', () => {
    // Act
    const spelledOut = commandTable.flatMap((each) =>
      each.options
        .filter((option) => option.value !== undefined && /^[a-z]+(\|[a-z]+)+$/.test(option.value))
        .map((option) => `${each.name} --${option.name} ${option.value}`),
    );

    // Assess
    expect(spelledOut).toEqual([]);
  });

  it.each([
    ['sync', ['--org', 'o', '--provider', 'gcp'], '--provider must be one of aws, azure; got gcp'],
    [
      'repair-usage',
      ['--org', 'o', '--provider', 'oracle'],
      '--provider must be one of aws, azure, gcp; got oracle',
    ],
    [
      'set-org',
      ['--org', 'o', '--sharing', 'everyone'],
      '--sharing must be one of organization, account; got everyone',
    ],
  ])('%s refuses a value outside its choices as a usage mistake', (name, rest, message) => {
    // Act
    const parse = () => parseCommand(command(name), rest);

    // Assess
    expect(parse).toThrow(new UsageError(message));
  });

  it('sync shows its providers in its help and takes either', () => {
    // Act
    const help = commandHelp(command('sync'));
    const azure = parseCommand(command('sync'), ['--org', 'o', '--provider', 'azure']);

    // Assess
    expect(help).toContain('aws or azure');
    expect(azure).toEqual({ help: false, input: { options: { org: 'o', provider: 'azure' }, args: [] } });
  });
});
