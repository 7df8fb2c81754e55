import { describe, expect, it } from 'vitest';
import { generateFleet } from '../../../local/demo/synthetic-fleet';
import { BUNDLED_CATALOG_DATA, loadCatalog } from '../../../shared/domain/catalog/catalog';
import { buildCatalog, validateCatalogData } from '../../../shared/domain/catalog/catalog-validation';
import { deterministicUuid } from '../../../shared/domain/deterministic-id';
import type {
  Offer,
  OfferContractType,
  OfferTerm,
  PaymentOption,
  Provider,
} from '../../../shared/domain/engine/shapes/model';
import { azureFlexibilityGroup } from '../../../shared/domain/instance-sizes';
import snapshot from '../../fixtures/aws-ec2-x2iedn.32xlarge-prices.excerpt.json' with { type: 'json' };

const catalog = loadCatalog();
const ALL_PAYMENTS: PaymentOption[] = ['No Upfront', 'Partial Upfront', 'All Upfront'];

function effectiveRate(offer: Offer): number {
  return offer.upfront / offer.termHours + offer.recurring;
}

function find(predicate: (offer: Offer) => boolean): Offer[] {
  return catalog.offers().filter(predicate);
}

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

describe('on-demand prices', () => {
  it('prices every size of a family linearly in its units', () => {
    // Prepare
    const key = {
      provider: 'aws',
      region: 'us-east-1',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    } as const;

    // Act
    const large = catalog.ondemandPrice({ ...key, instanceType: 'm5.large' });
    const quadruple = catalog.ondemandPrice({ ...key, instanceType: 'm5.4xlarge' });

    // Assess
    expect(large).toBe(0.096);
    expect(quadruple).toBeCloseTo(0.768, 12);
  });

  it('prices Azure sizes per vCPU and GCP machine types per vCPU', () => {
    const azure = {
      provider: 'azure',
      region: 'eastus',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    } as const;
    const gcp = {
      provider: 'gcp',
      region: 'us-central1',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    } as const;
    expect(catalog.ondemandPrice({ ...azure, instanceType: 'Standard_D8s_v5' })).toBeCloseTo(0.384, 12);
    expect(catalog.ondemandPrice({ ...gcp, instanceType: 'n2-standard-8' })).toBeCloseTo(0.388472, 12);
  });

  it('answers undefined for what it does not price', () => {
    const key = {
      provider: 'aws',
      region: 'us-east-1',
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    } as const;
    expect(catalog.ondemandPrice({ ...key, instanceType: 'm5.metal' })).toBeUndefined();
    expect(catalog.ondemandPrice({ ...key, instanceType: 'm5.large', tenancy: 'Dedicated' })).toBeUndefined();
    expect(catalog.ondemandPrice({ ...key, instanceType: 'm5.large', region: 'ap-south-2' })).toBeUndefined();
  });
});

describe('every commitment discounts', () => {
  it('costs less per unit-hour than on-demand for every instance a reservation covers', () => {
    // Prepare
    const reservations = find((offer) => offer.scope.kind !== 'spend');
    expect(reservations.length).toBeGreaterThan(0);

    // Act
    const notDiscounting = reservations.flatMap((offer) => {
      const { scope } = offer;
      const covered = catalog
        .pricedInstances(offer.provider)
        .filter((instance) =>
          scope.kind === 'family'
            ? instance.family === scope.family
            : scope.kind === 'instance' && instance.instanceType === scope.instanceType,
        )
        .filter(
          (instance) =>
            scope.kind !== 'spend' &&
            instance.region === scope.region &&
            instance.operatingSystem === scope.operatingSystem &&
            instance.tenancy === scope.tenancy,
        );
      if (covered.length === 0) return [`${offer.providerOfferingId} covers nothing priced`];
      return covered
        .filter((instance) => {
          const perUnit =
            scope.kind === 'family' ? instance.ondemandPrice / instance.units : instance.ondemandPrice;
          return !(effectiveRate(offer) < perUnit);
        })
        .map((instance) => `${offer.providerOfferingId} vs ${instance.instanceType}`);
    });

    // Assess
    expect(notDiscounting).toEqual([]);
  });

  it('gives every savings-plan rate a real discount on instances the catalog prices', () => {
    // Prepare
    const plans = find((offer) => offer.scope.kind === 'spend');
    expect(plans.length).toBeGreaterThan(0);

    // Act
    const problems = plans.flatMap((offer) =>
      offer.scope.kind !== 'spend'
        ? []
        : offer.scope.rates
            .filter(
              (rate) =>
                !(rate.discount > 0 && rate.discount < 1) ||
                !catalog.pricedInstances(offer.provider).some(
                  (instance) =>
                    instance.region === rate.region &&
                    instance.family === rate.family &&
                    // An absent field matches any value (the Azure plan covers every OS).
                    (rate.operatingSystem ?? instance.operatingSystem) === instance.operatingSystem &&
                    (rate.tenancy ?? instance.tenancy) === instance.tenancy,
                ),
            )
            .map((rate) => `${offer.providerOfferingId} ${JSON.stringify(rate)}`),
    );

    // Assess
    expect(problems).toEqual([]);
  });

  it('charges a savings plan one dollar per unit-hour whatever the payment option', () => {
    const plans = find((offer) => offer.scope.kind === 'spend');
    for (const offer of plans) expect(effectiveRate(offer)).toBeCloseTo(1, 12);
  });
});

describe('payment options', () => {
  it('splits the effective rate: All Upfront at purchase, No Upfront hourly, Partial half and half', () => {
    // Prepare
    const offers = find(
      (offer) =>
        offer.contractType === 'standard_ris' &&
        offer.provider === 'aws' &&
        offer.term === 'three_year' &&
        offer.scope.kind === 'family' &&
        offer.scope.family === 'm5' &&
        offer.scope.region === 'us-east-1',
    );
    const byPayment = new Map(offers.map((offer) => [offer.paymentOption, offer]));

    // Act
    const allUpfront = byPayment.get('All Upfront');
    const noUpfront = byPayment.get('No Upfront');
    const partial = byPayment.get('Partial Upfront');

    // Assess
    expect(allUpfront?.recurring).toBe(0);
    expect(allUpfront?.upfront).toBeCloseTo(26280 * (0.035712 / 4), 9);
    expect(noUpfront?.upfront).toBe(0);
    expect(noUpfront?.recurring).toBeCloseTo(0.040992 / 4, 12);
    expect(partial?.upfront).toBeCloseTo((26280 * (0.038016 / 4)) / 2, 9);
    expect(partial?.recurring).toBeCloseTo(0.038016 / 8, 12);
  });

  it('bills Azure reservations the same whether paid upfront or monthly', () => {
    const offers = find(
      (offer) =>
        offer.contractType === 'vm' &&
        offer.term === 'one_year' &&
        offer.scope.kind === 'family' &&
        offer.scope.family === 'Dsv5' &&
        offer.scope.region === 'eastus',
    );
    expect(offers.map((offer) => offer.paymentOption).sort()).toEqual(['All Upfront', 'No Upfront']);
    const [first, second] = offers.map(effectiveRate);
    expect(first).toBeCloseTo(second ?? Number.NaN, 12);
  });
});

describe('x2iedn prices match the AWS snapshot', () => {
  const terms = { yrTerm1: 'one_year', yrTerm3: 'three_year' } as const;
  const classes = { Standard: 'standard_ris', Convertible: 'convertible_ris' } as const;
  const payments = {
    noUpfront: 'No Upfront',
    partialUpfront: 'Partial Upfront',
    allUpfront: 'All Upfront',
  } as const;
  const systems = { linux: 'Linux', mswin: 'Windows' } as const;
  const units = snapshot.normalization_size_factor;

  const cases = Object.entries(snapshot.pricing).flatMap(([region, bySystem]) =>
    Object.entries(bySystem).flatMap(([system, prices]) =>
      Object.entries(prices.reserved).map(([key, rate]) => {
        const match = /^(yrTerm[13])(Standard|Convertible)\.(\w+)$/.exec(key);
        if (!match) throw new Error(`unexpected snapshot key ${key}`);
        return {
          region,
          operatingSystem: systems[system as keyof typeof systems],
          term: terms[match[1] as keyof typeof terms] as OfferTerm,
          contractType: classes[match[2] as keyof typeof classes] as OfferContractType,
          paymentOption: payments[match[3] as keyof typeof payments] as PaymentOption,
          rate: Number(rate),
        };
      }),
    ),
  );

  it('covers every region, OS, term, class and payment of the excerpt', () => {
    expect(cases).toHaveLength(3 * 2 * 12);
  });

  it.each(
    Object.entries(snapshot.pricing).flatMap(([region, bySystem]) =>
      Object.entries(bySystem).map(([system, prices]) => ({
        region,
        operatingSystem: systems[system as keyof typeof systems],
        ondemand: Number(prices.ondemand),
      })),
    ),
  )(
    'prices x2iedn.32xlarge $operatingSystem on demand in $region as the snapshot',
    ({ region, operatingSystem, ondemand }) => {
      const price = catalog.ondemandPrice({
        provider: 'aws',
        region,
        instanceType: 'x2iedn.32xlarge',
        operatingSystem,
        tenancy: 'Shared',
      });
      expect(price).toBe(ondemand);
    },
  );

  it.each(cases)(
    '$region $operatingSystem $contractType $term $paymentOption costs the snapshot rate',
    (entry) => {
      // Prepare
      const isFamily = entry.operatingSystem === 'Linux';

      // Act
      const [offer, ...others] = find(
        (offer) =>
          offer.provider === 'aws' &&
          offer.contractType === entry.contractType &&
          offer.term === entry.term &&
          offer.paymentOption === entry.paymentOption &&
          offer.scope.kind === (isFamily ? 'family' : 'instance') &&
          offer.scope.region === entry.region &&
          offer.scope.operatingSystem === entry.operatingSystem &&
          (offer.scope.kind === 'family'
            ? offer.scope.family === 'x2iedn'
            : offer.scope.kind === 'instance' && offer.scope.instanceType === 'x2iedn.32xlarge'),
      );

      // Assess
      expect(others).toEqual([]);
      expect(offer?.illustrative).toBe(false);
      const perInstance = (offer ? effectiveRate(offer) : Number.NaN) * (isFamily ? units : 1);
      expect(perInstance).toBeCloseTo(entry.rate, 9);
    },
  );
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

describe('required offers are present', () => {
  function has(predicate: (offer: Offer) => boolean): boolean {
    return catalog.offers().some(predicate);
  }

  it.each(
    ['m5', 'm6i', 'c5', 'r5', 't3', 'x2iedn'].flatMap((family) =>
      ['us-east-1', 'us-west-2', 'eu-west-1'].flatMap((region) =>
        (['standard_ris', 'convertible_ris'] as const).flatMap((contractType) =>
          (['one_year', 'three_year'] as const).map((term) => ({ family, region, contractType, term })),
        ),
      ),
    ),
  )(
    'AWS $contractType $family $region $term in every payment option, size-flexible',
    ({ family, region, contractType, term }) => {
      const offers = find(
        (offer) =>
          offer.contractType === contractType &&
          offer.term === term &&
          offer.scope.kind === 'family' &&
          offer.scope.family === family &&
          offer.scope.region === region &&
          offer.scope.operatingSystem === 'Linux' &&
          offer.scope.tenancy === 'Shared',
      );
      expect(offers.map((offer) => offer.paymentOption).sort()).toEqual([...ALL_PAYMENTS].sort());
      expect(offers.every((offer) => offer.termHours === (term === 'one_year' ? 8760 : 26280))).toBe(true);
    },
  );

  it('AWS Windows reservations of exact sizes', () => {
    expect(
      has(
        (offer) =>
          offer.contractType === 'standard_ris' &&
          offer.scope.kind === 'instance' &&
          offer.scope.instanceType === 'm5.xlarge' &&
          offer.scope.operatingSystem === 'Windows',
      ),
    ).toBe(true);
  });

  it.each(['compute_plans', 'instance_plans'] as const)(
    'AWS %s in both terms and every payment option',
    (type) => {
      const offers = find((offer) => offer.provider === 'aws' && offer.contractType === type);
      for (const term of ['one_year', 'three_year']) {
        const payments = new Set(
          offers.filter((offer) => offer.term === term).map((offer) => offer.paymentOption),
        );
        expect([...payments].sort()).toEqual([...ALL_PAYMENTS].sort());
      }
      expect(offers.every((offer) => offer.scope.kind === 'spend')).toBe(true);
    },
  );

  it('AWS EC2 Instance Savings Plans per region and family', () => {
    const offers = find((offer) => offer.contractType === 'instance_plans');
    for (const offer of offers) {
      const scope = offer.scope;
      if (scope.kind !== 'spend') throw new Error('instance plans are spend commitments');
      expect(new Set(scope.rates.map((rate) => `${rate.region}/${rate.family}`)).size).toBe(1);
    }
  });

  it.each(['db.m5', 'db.r5'])('RDS MySQL reservations of %s', (family) => {
    expect(
      has(
        (offer) =>
          offer.contractType === 'db_ris' &&
          offer.scope.kind === 'family' &&
          offer.scope.family === family &&
          offer.scope.operatingSystem === 'MySQL',
      ),
    ).toBe(true);
  });

  it.each(
    ['Dsv5', 'Esv5', 'FSv2'].flatMap((family) =>
      ['eastus', 'westeurope'].map((region) => ({ family, region })),
    ),
  )('Azure VM reservations of $family in $region for 1 and 3 years', ({ family, region }) => {
    const terms = find(
      (offer) =>
        offer.contractType === 'vm' &&
        offer.scope.kind === 'family' &&
        offer.scope.family === family &&
        offer.scope.region === region,
    ).map((offer) => offer.term);
    expect(new Set(terms)).toEqual(new Set(['one_year', 'three_year']));
  });

  it('the Azure savings plan for compute', () => {
    expect(has((offer) => offer.provider === 'azure' && offer.contractType === 'compute_plans')).toBe(true);
  });

  it.each(
    ['n2-standard-2', 'n2-standard-4', 'n2-standard-8', 'n2-standard-16', 'e2-standard-2', 'e2-standard-4']
      .concat(['e2-standard-8', 'c3-standard-4', 'c3-standard-8'])
      .flatMap((instanceType) => ['us-central1', 'europe-west1'].map((region) => ({ instanceType, region }))),
  )('GCP committed use discounts for $instanceType in $region, monthly', ({ instanceType, region }) => {
    const offers = find(
      (offer) =>
        offer.provider === 'gcp' &&
        offer.scope.kind === 'instance' &&
        offer.scope.instanceType === instanceType &&
        offer.scope.region === region,
    );
    expect(new Set(offers.map((offer) => offer.term))).toEqual(new Set(['one_year', 'three_year']));
    expect(offers.every((offer) => offer.paymentOption === 'No Upfront' && offer.upfront === 0)).toBe(true);
  });
});

describe('guaranteed offers', () => {
  it.each([
    ['thirty_day_gris', 720],
    ['one_year_gris', 8760],
  ] as const)('%s locks in for %d hours on the leased contract types', (term, lockinHours) => {
    // Act
    const leased = find((offer) => offer.term === term);

    // Assess
    expect(new Set(leased.map((offer) => `${offer.provider}/${offer.contractType}`))).toEqual(
      new Set([
        'aws/leased_ris',
        'aws/leased_compute_plans',
        'azure/leased_vm',
        'azure/leased_compute_plans',
      ]),
    );
    for (const offer of leased) {
      expect(offer.lockinHours).toBe(lockinHours);
      expect(offer.feeRate).toBeGreaterThan(0);
      expect(offer.illustrative).toBe(true);
      expect(offer.leasedDisplayName).not.toBe('');
    }
  });

  it('leases the provider 3-year No Upfront commitment at its price', () => {
    // Prepare
    const leased = find((offer) => offer.term === 'thirty_day_gris' && offer.contractType === 'leased_ris');

    // Act
    const pairs = leased.map((offer) => ({
      offer,
      underlying: find(
        (candidate) =>
          candidate.contractType === 'standard_ris' &&
          candidate.term === 'three_year' &&
          candidate.paymentOption === 'No Upfront' &&
          JSON.stringify(candidate.scope) === JSON.stringify(offer.scope),
      ),
    }));

    // Assess
    expect(pairs.length).toBeGreaterThan(0);
    for (const { offer, underlying } of pairs) {
      expect(underlying).toHaveLength(1);
      expect(offer.upfront).toBe(0);
      expect(offer.recurring).toBe(underlying[0]?.recurring);
      expect(offer.termHours).toBe(26280);
      expect(offer.providerOfferingId).toBe(underlying[0]?.providerOfferingId);
      expect(offer.id).not.toBe(underlying[0]?.id);
    }
  });

  it('charges no fee on plain provider offers', () => {
    const plain = find((offer) => offer.lockinHours === offer.termHours);
    expect(plain.length).toBeGreaterThan(0);
    expect(plain.every((offer) => offer.feeRate === 0 && !offer.contractType.startsWith('leased_'))).toBe(
      true,
    );
  });
});

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

describe('sources', () => {
  it('name a source for every offer and price, and mark everything but the snapshot illustrative', () => {
    for (const offer of catalog.offers()) expect(offer.source).not.toBe('');
    for (const instance of catalog.pricedInstances()) {
      expect(instance.source).not.toBe('');
      expect(instance.illustrative).toBe(instance.family !== 'x2iedn');
    }
  });
});
