import { describe, expect, it } from 'vitest';
import { LIVE_DEFAULT_REGIONS } from '../../../shared/cloud/prices/price-list-files';
import { refreshRegions } from '../../../shared/runtime/catalog-refresh';

/** The regions the deployed catalog refresh reads, from `CATALOG_REFRESH_REGIONS` (docs/catalog.md, Deployed refresh). */
describe('the catalog refresh regions', () => {
  it('are the ones the variable names, trimmed, in its order', () => {
    expect(refreshRegions(' eu-west-2,westeurope ,us-east-1')).toEqual([
      'eu-west-2',
      'westeurope',
      'us-east-1',
    ]);
  });

  it.each([undefined, '', ' , '])(
    'are the bundled catalog regions when the variable names none (%j)',
    (value) => {
      expect(refreshRegions(value)).toEqual(['us-east-1', 'us-west-2', 'eu-west-1', 'eastus', 'westeurope']);
      expect(refreshRegions(value)).toBe(LIVE_DEFAULT_REGIONS);
    },
  );
});
