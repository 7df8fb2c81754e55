import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import type { ExportBatch } from '../../../shared/domain/usage/exports/export-rows';
import {
  createExportUsageCollector,
  providerUsagesOf,
} from '../../../shared/domain/usage/exports/export-usage';
import {
  mergeStagedParts,
  type StagedPart,
  stagedPartOf,
} from '../../../shared/domain/usage/exports/staged-usage';

/**
 * A period read in parts and merged (docs/usage-sync.md, Deployed) is the period read whole: the
 * oracle is the collector reading every row in one pass.
 */

const importedAt = new Date('2026-11-01T00:00:00Z');

function batchOf(rows: readonly Record<string, unknown>[]): ExportBatch {
  return {
    length: rows.length,
    column: (name) => (rows.some((row) => name in row) ? rows.map((row) => row[name]) : undefined),
  };
}

function cur2Line(resource: number, hour: number, amount: number, type: string): Record<string, unknown> {
  const start = Date.parse('2026-06-01T00:00:00Z') + hour * 3_600_000;
  const instanceType = resource === 2 ? 'm5.xlarge' : 'm5.large';
  return {
    line_item_line_item_type: type,
    line_item_usage_start_date: new Date(start).toISOString(),
    line_item_usage_end_date: new Date(start + 3_600_000).toISOString(),
    line_item_product_code: 'AmazonEC2',
    line_item_usage_type: `USE1-BoxUsage:${instanceType}`,
    line_item_operation: 'RunInstances',
    // Resource 2 is resource 1 resized: one id, two descriptions, two named series.
    line_item_resource_id: `i-${resource === 2 ? 1 : resource}`,
    line_item_usage_account_id: '111111111111',
    line_item_usage_amount: amount,
    product_region_code: 'us-east-1',
    product_instance_type: instanceType,
    pricing_public_on_demand_rate: '',
    product: {},
  };
}

function collectorOf(rows: readonly Record<string, unknown>[]) {
  const collector = createExportUsageCollector('cur2', loadCatalog(), importedAt);
  collector.addBatch(batchOf(rows));
  return collector;
}

const line = fc
  .tuple(
    fc.integer({ min: 0, max: 2 }),
    fc.integer({ min: 0, max: 719 }),
    fc.constantFrom(0.5, 1, 2),
    fc.constantFrom('Usage', 'DiscountedUsage', 'Tax'),
  )
  .map(([resource, hour, amount, type]) => cur2Line(resource, hour, amount, type));

describe('staged parts', () => {
  it('merge to what one pass over every row collects, however the rows are cut', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 5 }),
        (rows, cuts) => {
          // Prepare: the rows cut into parts at the given positions, each staged through JSON.
          const positions = [...new Set(cuts.map((cut) => cut % rows.length))].sort((a, b) => a - b);
          const slices = [0, ...positions, rows.length]
            .slice(0, -1)
            .map((start, index, starts) => rows.slice(start, starts[index + 1] ?? rows.length));
          const parts = slices
            .filter((slice) => slice.length > 0)
            .map((slice, index) => {
              const collector = collectorOf(slice);
              const part = stagedPartOf(
                {
                  partId: `p${index}`,
                  key: 'k',
                  billingPeriod: '2026-06',
                  format: 'cur2',
                  rows: collector.rows,
                },
                collector.collected(),
              );
              return JSON.parse(JSON.stringify(part)) as StagedPart;
            });

          // Act
          const merged = providerUsagesOf(mergeStagedParts(parts));

          // Assess
          expect(merged).toEqual(collectorOf(rows).finish().providers);
          expect(parts.reduce((sum, part) => sum + part.rows, 0)).toBe(rows.length);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('adds up hours of one resource split between two parts (known answer)', () => {
    // i-1 runs hour 0 in part one (1 unit on demand) and part two (1 unit under a reservation):
    // 1 + 1 = 2 units in hour 0; hour 1 only in part two: 0.5.
    const one = collectorOf([cur2Line(1, 0, 1, 'Usage')]);
    const two = collectorOf([cur2Line(1, 0, 1, 'DiscountedUsage'), cur2Line(1, 1, 0.5, 'Usage')]);
    const staged = [one, two].map((collector, index) =>
      stagedPartOf(
        { partId: `p${index}`, key: 'k', billingPeriod: '2026-06', format: 'cur2', rows: collector.rows },
        collector.collected(),
      ),
    );
    const [aws] = providerUsagesOf(mergeStagedParts(staged));
    const hours = aws?.series[0]?.months.get('2026-06');
    expect([hours?.[0], hours?.[1], hours?.[2]]).toEqual([2, 0.5, 0]);
    expect(aws?.covered).toEqual({
      firstHour: one.collected().get('aws')?.firstHour,
      lastHour: (aws?.covered.firstHour ?? 0) + 1,
    });
  });
});
