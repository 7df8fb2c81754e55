import { describe, expect, it } from 'vitest';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { createUsageCsvParser } from '../../../shared/domain/usage/usage-csv';
import { recordsOfLines } from '../../support/csv-records';

// The columns in an order of their own: the places are read by the file's header, not by position.
const header =
  'region,timestamp,provider,account_id,service,resource_id,instance_type,operating_system,tenancy,usage_type,units,ondemand_price';

/** A row of an m5.large in us-east-1 whose price is the catalog's, with `changes` by column. */
function row(changes: Record<string, string> = {}): string {
  const values: Record<string, string> = {
    timestamp: '2026-06-01T00:00:00Z',
    provider: 'aws',
    account_id: '111111111111',
    region: 'us-east-1',
    service: 'AmazonEC2',
    resource_id: 'i-0a',
    instance_type: 'm5.large',
    operating_system: 'Linux',
    tenancy: 'Shared',
    usage_type: 'running',
    units: '1',
    ondemand_price: '',
    ...changes,
  };
  return header
    .split(',')
    .map((column) => values[column])
    .join(',');
}

describe('the places a usage file batch prices from the catalog', () => {
  it('are the regions of the instance-hour rows without a price, read by the header, batch after batch', () => {
    // Prepare
    const parser = createUsageCsvParser(loadCatalog(), new Date('2026-08-01T00:00:00Z'));
    const records = recordsOfLines([
      header,
      row(),
      row({ resource_id: 'i-0b', region: 'eu-west-1', ondemand_price: '0.107' }),
      row({ resource_id: 'i-0c', region: 'us-west-2', usage_type: 'stopped', ondemand_price: '0.01' }),
      row({ resource_id: 'vm-1', provider: 'azure', region: 'eastus', instance_type: 'Standard_D2s_v3' }),
      row({ resource_id: 'i-0d', region: 'us-west-2', timestamp: '2026-06-01T01:00:00Z' }),
    ]);
    const first = records.slice(0, 3);
    const second = records.slice(3);

    // Act: each batch is looked at before it is pushed, as the import does.
    const firstPlaces = parser.placesOf(first);
    for (const record of first) parser.push(record);
    const secondPlaces = parser.placesOf(second);

    // Assess: nothing was read by looking (the header and rows are pushed once).
    expect([...firstPlaces]).toEqual(['aws|us-east-1']);
    expect([...secondPlaces].sort()).toEqual(['aws|us-west-2', 'azure|eastus']);
    expect(parser.rows).toBe(2);
  });
});
