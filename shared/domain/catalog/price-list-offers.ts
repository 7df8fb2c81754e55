import { SIZE_FLEXIBLE_RDS_ENGINES } from '../engine/groups/groups';
import { instanceFamily } from '../engine/shapes/instance-family';
import type { Offer, OfferScope, PaymentOption, Provider } from '../engine/shapes/model';
import type { SavingsPlanFile } from './catalog-schema';
import { PROVIDER_TERM_HOURS, type ProviderTerm } from './catalog-terms';
import { sizeInstance } from './instance-units';
import { offerIdentity, TERM_LABELS } from './offer-pricing';
import type { ListedReservation, RegionPriceList } from './price-list';
import type { PricedInstance } from './reservation-offers';

/**
 * On-demand prices and reservation offers from price lists (docs/catalog.md, How a price list
 * becomes offers). Every price is the list's own, per instance of its size:
 * - a reservation AWS or Azure makes size flexible (an EC2 Linux regional RI in shared tenancy, an
 *   RDS MySQL, PostgreSQL or MariaDB Single-AZ RI, an Azure VM reservation of a size in Azure's
 *   flexibility table) is one `family` offer priced per unit: of the family's sizes, the dearest per
 *   unit (lists price sizes in proportion, to the cent; the dearest never overstates a saving);
 * - any other is one `instance` offer at its listed upfront and hourly price.
 * Savings plan rates become discounts per (region, family, OS, tenancy): the smallest discount of
 * the family's sizes, for the same reason (spendPlanFile).
 */

const PRODUCTS: Readonly<Record<ListedReservation['contractType'], { name: string; offeringClass: string }>> =
  {
    standard_ris: { name: 'EC2 Standard Reserved Instance', offeringClass: 'standard' },
    convertible_ris: { name: 'EC2 Convertible Reserved Instance', offeringClass: 'convertible' },
    db_ris: { name: 'RDS Reserved DB Instance (Single-AZ)', offeringClass: 'standard' },
    vm: { name: 'Azure Reserved VM Instance', offeringClass: '' },
  };

/** The product description EC2 reservations are bought by, per platform the usage readers name. */
const EC2_PRODUCT_DESCRIPTIONS: Readonly<Record<string, string>> = {
  Linux: 'Linux/UNIX',
  Windows: 'Windows',
  RHEL: 'Red Hat Enterprise Linux',
  'RHEL with HA': 'Red Hat Enterprise Linux with HA',
  SUSE: 'SUSE Linux',
  'Linux with SQL Std': 'Linux with SQL Server Standard',
  'Linux with SQL Ent': 'Linux with SQL Server Enterprise',
  'Linux with SQL Web': 'Linux with SQL Server Web',
  'Windows with SQL Std': 'Windows with SQL Server Standard',
  'Windows with SQL Ent': 'Windows with SQL Server Enterprise',
  'Windows with SQL Web': 'Windows with SQL Server Web',
};

function productDescription(reservation: ListedReservation): string {
  if (reservation.service === 'AmazonEC2') {
    return EC2_PRODUCT_DESCRIPTIONS[reservation.operatingSystem] ?? reservation.operatingSystem;
  }
  if (reservation.service === 'AmazonRDS') return reservation.operatingSystem.toLowerCase();
  return reservation.operatingSystem;
}

const listSource = (list: RegionPriceList) => list.source;

/** The family and units an instance counts for: the provider's sizing, else the list's size factor. */
function sized(provider: Provider, instanceType: string, sizeFactor: number | undefined) {
  const known = sizeInstance(provider, instanceType);
  return known ?? { family: instanceFamily(provider, instanceType), units: sizeFactor ?? 1 };
}

export function priceListInstances(list: RegionPriceList): PricedInstance[] {
  return list.instances.map((listed) => {
    const { family, units } = sized(list.provider, listed.instanceType, listed.sizeFactor);
    return {
      provider: list.provider,
      service: listed.service,
      region: list.region,
      instanceType: listed.instanceType,
      family,
      units,
      operatingSystem: listed.operatingSystem,
      tenancy: listed.tenancy,
      ...(listed.deploymentOption === 'Multi-AZ' ? { deploymentOption: listed.deploymentOption } : {}),
      ondemandPrice: listed.ondemand,
      source: listSource(list),
      illustrative: false,
    };
  });
}

/** Whether AWS or Azure lets this reservation cover every size of its family. */
function sizeFlexible(provider: Provider, reservation: ListedReservation): boolean {
  if (!sizeInstance(provider, reservation.instanceType)) return false;
  switch (reservation.contractType) {
    case 'standard_ris':
    case 'convertible_ris':
      return reservation.operatingSystem === 'Linux' && reservation.tenancy === 'Shared';
    case 'db_ris':
      return SIZE_FLEXIBLE_RDS_ENGINES.includes(reservation.operatingSystem);
    case 'vm':
      return true;
  }
}

export function priceListReservationOffers(list: RegionPriceList): Offer[] {
  const { provider, region } = list;
  const families = new Map<string, { reservation: ListedReservation; perUnit: number; units: number }>();
  const offers: Offer[] = [];
  for (const reservation of list.reservations) {
    // Multi-AZ needs twice a Single-AZ reservation's units (docs/plan-engine.md): Single-AZ offers only.
    if (reservation.deploymentOption === 'Multi-AZ') continue;
    const termHours = PROVIDER_TERM_HOURS[reservation.term];
    const effective = reservation.upfront / termHours + reservation.recurring;
    if (sizeFlexible(provider, reservation)) {
      const { family, units } = sizeInstance(provider, reservation.instanceType) as {
        family: string;
        units: number;
      };
      const key = [
        reservation.contractType,
        reservation.term,
        reservation.paymentOption,
        family,
        reservation.operatingSystem,
        reservation.tenancy,
      ].join('|');
      const known = families.get(key);
      if (!known || effective / units > known.perUnit)
        families.set(key, { reservation, perUnit: effective / units, units });
      continue;
    }
    const { instanceType, operatingSystem, tenancy } = reservation;
    offers.push(
      reservationOffer(
        list,
        reservation,
        { kind: 'instance', region, instanceType, operatingSystem, tenancy },
        instanceType,
        1,
      ),
    );
  }
  for (const { reservation, units } of families.values()) {
    const family = (sizeInstance(provider, reservation.instanceType) as { family: string }).family;
    const { operatingSystem, tenancy } = reservation;
    offers.push(
      reservationOffer(
        list,
        reservation,
        { kind: 'family', region, family, operatingSystem, tenancy },
        `${family} (size-flexible)`,
        units,
      ),
    );
  }
  return offers;
}

function reservationOffer(
  list: RegionPriceList,
  reservation: ListedReservation,
  scope: Extract<OfferScope, { kind: 'instance' | 'family' }>,
  label: string,
  units: number,
): Offer {
  const { contractType, term, paymentOption } = reservation;
  const product = PRODUCTS[contractType];
  const scopeParts =
    scope.kind === 'family'
      ? ['family', scope.region, scope.family, scope.operatingSystem, scope.tenancy]
      : ['instance', scope.region, scope.instanceType, scope.operatingSystem, scope.tenancy];
  const { id, providerOfferingId } = offerIdentity(
    list.provider,
    contractType,
    term,
    paymentOption,
    scopeParts,
  );
  const description = productDescription(reservation);
  return {
    id,
    provider: list.provider,
    contractType,
    term,
    paymentOption,
    scope,
    termHours: PROVIDER_TERM_HOURS[term],
    lockinHours: PROVIDER_TERM_HOURS[term],
    upfront: reservation.upfront / units,
    recurring: reservation.recurring / units,
    feeRate: 0,
    providerOfferingId,
    displayName: `${product.name}, ${label}, ${description}, ${list.region}, ${TERM_LABELS[term]}, ${paymentOption}`,
    leasedDisplayName: '',
    productDescription: description,
    offeringClass: product.offeringClass,
    planType: '',
    source: listSource(list),
    illustrative: false,
  };
}

const PLANS: SavingsPlanFile['plans'] = [
  {
    planType: 'ComputeSavingsPlans',
    contractType: 'compute_plans',
    displayName: 'Compute Savings Plan',
    perRegionFamily: false,
  },
  {
    planType: 'EC2InstanceSavingsPlans',
    contractType: 'instance_plans',
    displayName: 'EC2 Instance Savings Plan',
    perRegionFamily: true,
  },
  {
    planType: 'AzureSavingsPlanForCompute',
    contractType: 'compute_plans',
    displayName: 'Azure savings plan for compute',
    perRegionFamily: false,
  },
];

/**
 * The lists' savings plan rates of one provider as a savings plan file (savings-plan-offers.ts
 * turns it into offers): one row per plan type, region, family, OS and tenancy, its discount per
 * term and payment option the smallest of the family's sizes (1 - plan rate / on-demand price).
 * A rate no cheaper than on demand is left out.
 */
export function spendPlanFile(
  provider: Provider,
  lists: readonly RegionPriceList[],
): SavingsPlanFile | undefined {
  type Row = SavingsPlanFile['rates'][number];
  const rows = new Map<
    string,
    { row: Row; discounts: Partial<Record<ProviderTerm, Partial<Record<PaymentOption, number>>>> }
  >();
  const sources: SavingsPlanFile['sources'] = {};
  for (const list of lists) {
    if (list.provider !== provider) continue;
    const ondemand = new Map(
      list.instances
        .filter((i) => i.deploymentOption !== 'Multi-AZ')
        .map((i) => [`${i.instanceType}|${i.operatingSystem}|${i.tenancy}`, i.ondemand]),
    );
    sources[list.region] = { illustrative: false, description: list.source };
    for (const rate of list.spendRates) {
      const price = ondemand.get(`${rate.instanceType}|${rate.operatingSystem}|${rate.tenancy}`);
      if (price === undefined || price <= 0) continue;
      const discount = 1 - rate.rate / price;
      if (!(discount > 0 && discount < 1)) continue;
      const family = sized(provider, rate.instanceType, undefined).family;
      const key = [rate.planType, list.region, family, rate.operatingSystem, rate.tenancy].join('|');
      let entry = rows.get(key);
      if (!entry) {
        const row = {
          planType: rate.planType,
          region: list.region,
          family,
          operatingSystem: rate.operatingSystem,
          tenancy: rate.tenancy,
          source: list.region,
          discounts: {},
        };
        entry = { row, discounts: {} };
        rows.set(key, entry);
      }
      const byPayment = entry.discounts[rate.term] ?? {};
      entry.discounts[rate.term] = byPayment;
      const known = byPayment[rate.paymentOption];
      if (known === undefined || discount < known) byPayment[rate.paymentOption] = discount;
    }
  }
  if (rows.size === 0) return undefined;
  const rates = [...rows.values()].map(({ row, discounts }) => ({ ...row, discounts }) as Row);
  const planTypes = new Set(rates.map((row) => row.planType));
  return { provider, sources, plans: PLANS.filter((plan) => planTypes.has(plan.planType)), rates };
}
