import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../bin/admin/admin-command';
import { fullHelp, usageLine } from '../../../bin/admin/command-help';
import { findCommand, parseCommand } from '../../../bin/admin/command-line';
import { commandTable } from '../../../bin/admin/command-table';

/** The operator CLI's table, and the parser and help generated from it (bin/admin/). */

function command(name: string) {
  const found = commandTable.find((each) => each.name === name);
  if (!found) throw new Error(`no command ${name}`);
  return found;
}

describe('the command table', () => {
  it('names each command once, and the help shows every usage line of it, none wider than 100', () => {
    // Act
    const help = fullHelp(commandTable);

    // Assess
    const names = commandTable.map((each) => each.name);
    expect(new Set(names).size).toBe(names.length);
    const unwrapped = help.replace(/\n +(?=\[|--)/g, ' ');
    for (const each of commandTable) expect(unwrapped).toContain(`  ${usageLine(each)}\n`);
    expect(help.split('\n').filter((line) => line.length > 100)).toEqual([]);
  });
});

describe('findCommand', () => {
  it('finds a family member by its two words and the rest after them', () => {
    // Act
    const found = findCommand(commandTable, ['simulate-cloud', 'latency', '--ms', '5']);

    // Assess
    expect(found.command.name).toBe('simulate-cloud latency');
    expect(found.rest).toEqual(['--ms', '5']);
  });

  it('names the members of a family called alone, and an unknown command', () => {
    // Act
    const family = () => findCommand(commandTable, ['simulate-cloud']);
    const unknown = () => findCommand(commandTable, ['drop-table']);

    // Assess
    expect(family).toThrow(new UsageError('simulate-cloud needs aws, azure, show or latency'));
    expect(unknown).toThrow(new UsageError('unknown command drop-table'));
  });
});

describe('parseCommand', () => {
  it('answers the options, trimmed, and the arguments the command declares', () => {
    // Act
    const parsed = parseCommand(command('create-org'), ['--name', ' Acme ', '--partner=p1']);

    // Assess
    expect(parsed).toEqual({ help: false, input: { options: { name: 'Acme', partner: 'p1' }, args: [] } });
  });

  it.each([
    [['--org', 'o', '--bogus'], 'unknown option --bogus for list-purchases'],
    [['--org'], '--org needs a value: <org_id>'],
    [['--org', '--plan', 'p'], '--org needs a value: <org_id>'],
    [['--plan', 'p'], '--org is required'],
    [['--org', 'o', 'extra'], 'unexpected argument extra (quote a value with spaces)'],
  ])('refuses %j naming the mistake', (argv, message) => {
    // Act
    const parse = () => parseCommand(command('list-purchases'), argv);

    // Assess
    expect(parse).toThrow(new UsageError(message));
  });

  it('refuses a value outside the allowed ones, and a value given to a flag', () => {
    // Act
    const badChoice = () => parseCommand(command('repair-usage'), ['--org', 'o', '--provider', 'oracle']);
    const flagValue = () => parseCommand(command('dead-letters'), ['--redrive=yes']);

    // Assess
    expect(badChoice).toThrow(new UsageError('--provider must be one of aws, azure, gcp; got oracle'));
    expect(flagValue).toThrow(new UsageError('--redrive takes no value'));
  });

  it('refuses a whole API key where a key id is asked, naming the id and not the secret', () => {
    // Prepare: a key of the documented form, cpk_<16-character id>_<40-character secret>
    const keyId = 'AbCdEfGh01234567';
    const secret = 'S'.repeat(40);

    // Act
    let message = '';
    try {
      parseCommand(command('revoke-key'), [`cpk_${keyId}_${secret}`]);
    } catch (error) {
      message = (error as Error).message;
    }

    // Assess
    expect(message).toContain(`(here revoke-key ${keyId})`);
    expect(message).not.toContain(secret);
  });

  it('answers help for <command> --help, whatever else is given', () => {
    // Act
    const parsed = parseCommand(command('create-key'), ['--bogus', '--help']);

    // Assess
    expect(parsed).toEqual({ help: true });
  });
});
