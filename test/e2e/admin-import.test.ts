import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useAdminOrgStore } from '../support/admin-org-store';

const fixtures = join(import.meta.dirname, '../fixtures/import');

describe('admin CLI imports', () => {
  const store = useAdminOrgStore('admin-import-', 'Importing Co');

  it('imports a usage file and prints what it stored per provider', async () => {
    // Act
    const run = await store.run('import-usage', '--org', store.orgId, '--file', join(fixtures, 'usage.csv'));

    // Assess
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      org_id: store.orgId,
      rows: 5,
      providers: [
        {
          provider: 'aws',
          rows: 4,
          resources: 2,
          first_hour: '2026-06-30T22:00:00Z',
          last_hour: '2026-07-01T00:00:00Z',
          hours: 3,
          usage_version: 1,
          changed: true,
        },
        {
          provider: 'azure',
          rows: 1,
          resources: 1,
          first_hour: '2026-06-30T23:00:00Z',
          last_hour: '2026-06-30T23:00:00Z',
          hours: 1,
          usage_version: 1,
          changed: true,
        },
      ],
    });
  });

  it('imports a commitments file and prints the count per provider', async () => {
    // Act
    const run = await store.run(
      'import-commitments',
      '--org',
      store.orgId,
      '--file',
      join(fixtures, 'commitments.csv'),
    );

    // Assess
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      org_id: store.orgId,
      rows: 4,
      providers: [
        { provider: 'aws', commitments: 3, usage_version: 2 },
        { provider: 'azure', commitments: 1, usage_version: 2 },
      ],
    });
  });

  it('rejects a file with bad rows with exit code 1, listing them by line on stderr', async () => {
    // Act
    const run = await store.run(
      'import-usage',
      '--org',
      store.orgId,
      '--file',
      join(fixtures, 'usage-bad.csv'),
    );

    // Assess
    expect(run.exitCode).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(
      [
        'line 3: timestamp must be an ISO 8601 UTC hour start, e.g. 2026-06-01T13:00:00Z; got 2026-06-30T22:30:00Z',
        'line 4: units must be a number >= 0; got -1',
        'line 5: ondemand_price is empty and the catalog has no on-demand price for aws us-east-1 m5.huge Linux Shared',
        'admin: The file has 3 errors; nothing was imported',
      ].join('\n'),
    );
  });
});
