import { describe, expect, it } from 'vitest';
import { commandTable } from '../../../bin/admin/command-table';

/**
 * bin/admin.ts refuses an org the store does not have for every command taking `--org`, before the
 * command runs: it reads the org from the store the command declares.
 */

describe('commands taking --org', () => {
  it('each declare the store, where the CLI looks the org up', () => {
    // Act
    const withoutStore = commandTable
      .filter((command) => command.options.some((option) => option.name === 'org'))
      .filter((command) => !command.needs.includes('store'))
      .map((command) => command.name);

    // Assess
    expect(withoutStore).toEqual([]);
  });
});
