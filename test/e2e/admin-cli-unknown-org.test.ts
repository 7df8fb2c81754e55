import { describe, expect, it } from 'vitest';
import { useAdminOrgStore } from '../support/admin-org-store';

/**
 * Every command of the operator CLI that takes `--org` refuses an org the store does not have in
 * the same words and with the same exit code (1), before it runs: a listing answers no empty list
 * for a mistyped id, and nothing is written.
 */

const nullOrg = '00000000-0000-0000-0000-000000000000';

describe('an unknown --org', () => {
  const store = useAdminOrgStore('admin-unknown-org-', 'Known Org');

  it.each([
    ['list-purchases', ['--org', 'nope']],
    ['list-purchases', ['--org', nullOrg]],
    ['create-key', ['--org', 'nope', '--email', 'ops@example.com', '--role', 'admin']],
    ['set-org', ['--org', 'nope', '--sharing', 'account']],
    ['repair-usage', ['--org', nullOrg, '--provider', 'aws']],
    ['sync', ['--org', 'nope']],
    ['simulate-cloud aws', ['--account', '444455556666', '--org', 'nope']],
  ])('%s %j is refused naming the org, exit 1', async (name, rest) => {
    // Act
    const run = await store.run(...name.split(' '), ...rest);

    // Assess
    const orgId = rest[rest.indexOf('--org') + 1];
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(`admin: Organization ${orgId} not found`);
  });

  it('leaves a known org answered as before', async () => {
    // Act
    const run = await store.run('list-purchases', '--org', store.orgId);

    // Assess
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ purchases: [] });
  });
});
