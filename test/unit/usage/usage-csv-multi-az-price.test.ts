/**
 * A Multi-AZ database of the usage CSV whose price is left to the catalog is priced as the export
 * path prices it, twice the catalog's Single-AZ price (it runs a standby), so that its price
 * agrees with the units its coverage counts; its resource record says those units.
 */
import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { resourceDescriber } from '../../../shared/domain/engine/shapes/resources';
import { createUsageCsvParser } from '../../../shared/domain/usage/usage-csv';
import { recordsOfLines } from '../../support/csv-records';

const header =
  'timestamp,provider,account_id,region,service,resource_id,instance_type,operating_system,tenancy,usage_type,units,ondemand_price,deployment_option';

function database(resourceId: string, deployment: string): string {
  return `2026-06-01T00:00:00Z,aws,111111111111,us-east-1,AmazonRDS,${resourceId},db.m5.large,MySQL,Shared,running,1,,${deployment}`;
}

describe('usage CSV: a Multi-AZ database priced by the catalog', () => {
  it('is valued at twice the Single-AZ price (0.171 in us-east-1 MySQL), and its resource counts 8 units of db.m5', () => {
    const parser = createUsageCsvParser(loadCatalog(), new Date('2026-08-01T00:00:00Z'));
    for (const record of recordsOfLines([
      header,
      database('db-multi', 'Multi-AZ'),
      database('db-single', ''),
    ])) {
      parser.push(record);
    }
    const resources = parser.finish().providers[0]?.series.map((series) => series.resource) ?? [];

    expect(resources.map((resource) => [resource.resourceId, resource.ondemandPrice])).toEqual([
      ['db-multi', 0.342],
      ['db-single', 0.171],
    ]);
    const describe = resourceDescriber('org-1');
    const day = '2026-06-01';
    const dates = { usageStart: day, usageEnd: day, firstSeen: day, lastSeen: day, priceDate: day };
    const units = resources.map(
      (resource) =>
        describe({ ...resource, usage: new Float64Array(1) }, dates, true).normalization_size_factor,
    );
    expect(units).toEqual(['8', '4']);
  });
});
