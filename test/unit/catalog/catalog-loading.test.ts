import { describe, expect, it } from 'vitest';
import { BUNDLED_CATALOG_DATA, loadCatalog } from '../../../shared/domain/catalog/catalog';
import { buildCatalog, validateCatalogData } from '../../../shared/domain/catalog/catalog-validation';
import { deterministicUuid } from '../../../shared/domain/deterministic-id';
import type { Provider } from '../../../shared/domain/engine/shapes/model';
import { catalog } from '../../support/catalog-offers';

describe('catalog loading', () => {
  it('ships data its schemas pass unchanged, so the functions may build the catalog without them', () => {
    // Act: the schemas strip unknown keys and would refuse a bad field; neither may happen.
    const validated = validateCatalogData(BUNDLED_CATALOG_DATA);

    // Assess
    expect(validated).toEqual(BUNDLED_CATALOG_DATA);
    expect(loadCatalog().offers()).toEqual(buildCatalog(BUNDLED_CATALOG_DATA).offers());
  });

  it('validates the bundled data and offers commitments for every provider', () => {
    // Act
    const built = buildCatalog(BUNDLED_CATALOG_DATA);

    // Assess
    for (const provider of ['aws', 'azure', 'gcp'] as Provider[]) {
      expect(built.offers(provider).length).toBeGreaterThan(0);
      expect(built.pricedInstances(provider).length).toBeGreaterThan(0);
      expect(built.offers(provider).every((offer) => offer.provider === provider)).toBe(true);
    }
    expect(built.offers()).toHaveLength(
      built.offers('aws').length + built.offers('azure').length + built.offers('gcp').length,
    );
  });

  it('returns the same catalog on every load', () => {
    expect(loadCatalog()).toBe(catalog);
  });
});

describe('offer ids', () => {
  it('are unique UUIDs', () => {
    const ids = catalog.offers().map((offer) => offer.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids)
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('derive from the offer identity, so every build gives the same ids', () => {
    // Act
    const rebuilt = buildCatalog(BUNDLED_CATALOG_DATA);
    const offer = catalog
      .offers('aws')
      .find(
        (candidate) =>
          candidate.providerOfferingId ===
          'aws/standard_ris/one_year/no-upfront/family/us-east-1/m5/Linux/Shared',
      );

    // Assess
    expect(rebuilt.offers().map((candidate) => candidate.id)).toEqual(
      catalog.offers().map((candidate) => candidate.id),
    );
    expect(offer?.id).toBe(
      deterministicUuid(
        'offer',
        'aws',
        'standard_ris',
        'one_year',
        'no-upfront',
        'family',
        'us-east-1',
        'm5',
        'Linux',
        'Shared',
      ),
    );
  });

  it('finds every offer by its id', () => {
    for (const offer of catalog.offers()) expect(catalog.offerById(offer.id)).toBe(offer);
    expect(catalog.offerById('00000000-0000-5000-8000-000000000000')).toBeUndefined();
  });
});

describe('sources', () => {
  it('name a source for every offer and price, and mark everything but the snapshot illustrative', () => {
    for (const offer of catalog.offers()) expect(offer.source).not.toBe('');
    for (const instance of catalog.pricedInstances()) {
      expect(instance.source).not.toBe('');
      expect(instance.illustrative).toBe(instance.family !== 'x2iedn');
    }
  });
});
