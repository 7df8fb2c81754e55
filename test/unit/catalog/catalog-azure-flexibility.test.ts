import { describe, expect, it } from 'vitest';
import { generateFleet } from '../../../local/demo/synthetic-fleet';
import { azureFlexibilityGroup } from '../../../shared/domain/instance-sizes';
import { catalog } from '../../support/catalog-offers';

describe('Azure instance size flexibility', () => {
  it('has a flexibility entry, in the family the catalog prices it in, for every Azure size priced', () => {
    const priced = catalog.pricedInstances('azure');
    expect(priced.length).toBeGreaterThan(0);
    const missing = priced
      .filter((instance) => azureFlexibilityGroup(instance.instanceType)?.family !== instance.family)
      .map((instance) => instance.instanceType);
    expect(missing).toEqual([]);
  });

  it('has a flexibility entry for every size the demo fleet runs', () => {
    const window = { start: '2026-01-01T00:00:00Z', hours: 24 };
    const fleet = generateFleet({ seed: 'isf', provider: 'azure', streams: 2000, window, catalog });
    const sizes = new Set(fleet.map((stream) => stream.instanceType));
    expect([...sizes].filter((size) => azureFlexibilityGroup(size) === null)).toEqual([]);
  });
});
