import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ProviderUsage } from '../../../shared/domain/usage/imported-usage';
import { hoursFrom, usageImportSteps, usageOf } from '../../support/stored-usage';
import { useTestTable } from '../../support/test-table';
import { m5LargeResource } from '../../support/usage-streams';

describe('usage repository: whether an import would change the stored usage', () => {
  const table = useTestTable();
  const { importUsage, seriesItems } = usageImportSteps(table);

  const june = (units: (hour: number) => number) => hoursFrom('2026-06-01T00:00:00Z', 48, units);
  const stored = usageOf('aws', { 'i-1': june((t) => t % 3), 'i-2': june(() => 1) });

  const cases: { name: string; file: ProviderUsage; changes: boolean }[] = [
    { name: 'the same values', file: stored, changes: false },
    {
      name: 'one hour of one resource other',
      file: usageOf('aws', { 'i-1': june((t) => (t === 47 ? 5 : t % 3)), 'i-2': june(() => 1) }),
      changes: true,
    },
    {
      name: 'a stored resource left out (it would read zero there)',
      file: usageOf('aws', { 'i-1': june((t) => t % 3) }),
      changes: true,
    },
    {
      name: 'a resource described otherwise (another instance type)',
      file: usageOf(
        'aws',
        { 'i-1': june((t) => t % 3), 'i-2': june(() => 1) },
        { 'i-2': { ...m5LargeResource('i-2'), instanceType: 'm5.xlarge' } },
      ),
      changes: true,
    },
    {
      name: 'a new resource',
      file: usageOf('aws', { 'i-1': june((t) => t % 3), 'i-2': june(() => 1), 'i-3': june(() => 1) }),
      changes: true,
    },
    {
      name: 'the first day only, with its stored values',
      file: usageOf('aws', {
        'i-1': hoursFrom('2026-06-01T00:00:00Z', 24, (t) => t % 3),
        'i-2': hoursFrom('2026-06-01T00:00:00Z', 24, () => 1),
      }),
      changes: false,
    },
  ];

  it.each(cases)('answers $changes for $name, writing nothing', async ({ file, changes }) => {
    // Prepare
    const orgId = randomUUID();
    await importUsage(orgId, stored);
    const before = await seriesItems(orgId, 'aws');

    // Act
    const answer = await table.store.usage.coveredHoursChange(orgId, file);

    // Assess
    expect(answer).toBe(changes);
    expect(await seriesItems(orgId, 'aws')).toEqual(before);
  });
});
