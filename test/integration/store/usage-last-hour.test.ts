import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hourOf, usageImportSteps, usageOf } from '../../support/stored-usage';
import { useTestTable } from '../../support/test-table';

describe('usage repository: stored hours', () => {
  const table = useTestTable();
  const { importUsage } = usageImportSteps(table);

  it('finds the last hour with stored usage in a range, searching back across months', async () => {
    // Prepare: usage in June and on 2062-01-01; nothing in between.
    const orgId = randomUUID();
    await importUsage(
      orgId,
      usageOf('aws', { a: { '2026-06-10T03:00:00Z': 1 }, b: { '2026-06-20T07:00:00Z': 2 } }),
    );
    await importUsage(orgId, usageOf('aws', { a: { '2062-01-01T00:00:00Z': 1 } }));
    const june = hourOf('2026-06-01T00:00:00Z');

    // Act
    const beforeAugust = await table.store.usage.lastHourWithUsage(
      orgId,
      'aws',
      june,
      hourOf('2026-08-31T00:00:00Z'),
    );
    const beforeJune20 = await table.store.usage.lastHourWithUsage(
      orgId,
      'aws',
      june,
      hourOf('2026-06-20T06:00:00Z'),
    );
    const inJuly = await table.store.usage.lastHourWithUsage(
      orgId,
      'aws',
      hourOf('2026-07-01T00:00:00Z'),
      hourOf('2026-07-31T23:00:00Z'),
    );

    // Assess
    expect(beforeAugust).toBe(hourOf('2026-06-20T07:00:00Z'));
    expect(beforeJune20).toBe(hourOf('2026-06-10T03:00:00Z'));
    expect(inJuly).toBeNull();
  });
});
