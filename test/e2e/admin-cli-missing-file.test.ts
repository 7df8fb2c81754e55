import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useAdminOrgStore } from '../support/admin-org-store';

/**
 * A file the operator names that cannot be read is one plain sentence naming the path once, with
 * exit code 1, whichever command reads it.
 */

const missing = join(tmpdir(), 'admin-missing-file-nowhere', 'usage.csv');
const account = '444455556666';

describe('a file that cannot be read', () => {
  const store = useAdminOrgStore('admin-missing-file-', 'Files Org');

  beforeAll(async () => {
    const joined = await store.run('simulate-cloud', 'aws', '--account', account, '--org', store.orgId);
    expect(joined.exitCode).toBe(0);
  });

  it.each([
    ['import-usage', () => ['import-usage', '--org', store.orgId, '--file', missing]],
    [
      'import-usage as the usage CSV',
      () => ['import-usage', '--org', store.orgId, '--file', missing, '--format', 'usage-csv'],
    ],
    ['import-commitments', () => ['import-commitments', '--org', store.orgId, '--file', missing]],
    [
      'simulate-cloud aws --commitments',
      () => ['simulate-cloud', 'aws', '--account', account, '--commitments', missing],
    ],
    [
      'simulate-cloud aws --deliver',
      () => ['simulate-cloud', 'aws', '--account', account, '--deliver', missing, '--period', '2024-09'],
    ],
  ])('%s: names the path once and says there is no such file', async (_name, args) => {
    // Act
    const run = await store.run(...args());

    // Assess
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(
      `admin: cannot read ${missing}: there is no such file`,
    );
  });

  it('says a folder is a folder', async () => {
    // Act
    const run = await store.run('import-commitments', '--org', store.orgId, '--file', tmpdir());

    // Assess
    expect(run.exitCode).toBe(1);
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(`admin: cannot read ${tmpdir()}: it is a folder`);
  });
});
