import type { DeploymentOption, Offer, Provider } from '../engine/shapes/model';
import type { GuaranteedOfferFile, ReservationFile, SavingsPlanFile } from './catalog-schema';
import { CatalogDataError } from './catalog-terms';
import { guaranteedOffers } from './guaranteed-offers';
import { unpackCatalog } from './packed-data';
import { type CatalogData, catalogDataOf } from './packed-files';
import type { RegionPriceList } from './price-list';
import { priceListInstances, priceListReservationOffers, spendPlanFile } from './price-list-offers';
import { type PricedInstance, reservationCatalog } from './reservation-offers';
import { savingsPlanOffers } from './savings-plan-offers';

export type { PricedInstance } from './reservation-offers';

/** What identifies an on-demand price: one instance type in one region, OS and tenancy. */
export interface InstanceKey {
  readonly provider: Provider;
  readonly region: string;
  readonly instanceType: string;
  readonly operatingSystem: string;
  readonly tenancy: string;
  /** RDS: `Multi-AZ` is priced apart; absent or `Single-AZ`: the Single-AZ price. */
  readonly deploymentOption?: DeploymentOption;
}

/** The offers the planner may buy and the on-demand prices usage is valued at. */
export interface Catalog {
  /** Every offer, or one provider's, in catalog order. */
  offers(provider?: Provider): readonly Offer[];
  offerById(id: string): Offer | undefined;
  /** p: on-demand price per instance-hour; undefined when the catalog does not price it. */
  ondemandPrice(instance: InstanceKey): number | undefined;
  pricedInstance(instance: InstanceKey): PricedInstance | undefined;
  /** Every instance type the catalog prices on demand, or one provider's. */
  pricedInstances(provider?: Provider): readonly PricedInstance[];
}

/** Catalog data whose files passed their schemas (catalog-validation.ts), by file name. */
export interface ValidCatalogData {
  readonly reservations: Readonly<Record<string, ReservationFile>>;
  readonly savingsPlans: Readonly<Record<string, SavingsPlanFile>>;
  readonly guaranteed: Readonly<Record<string, GuaranteedOfferFile>>;
}

/** The data files bundled with the service (packed: ./packed-data.ts). */
export const BUNDLED_CATALOG_DATA: CatalogData = catalogDataOf(unpackCatalog());

let bundledCatalog: Catalog | undefined;

/**
 * The catalog of the bundled data, built on first use and shared afterwards. The data is trusted
 * as it is: `npm run catalog:pack` validates the files before packing them and the unit tests
 * validate the packed copy (catalog-validation.ts), so the functions carry no catalog schemas.
 */
export function loadCatalog(): Catalog {
  bundledCatalog ??= assembleCatalog(BUNDLED_CATALOG_DATA as ValidCatalogData);
  return bundledCatalog;
}

/**
 * Builds the catalog from valid files and, where a refresh stored them, the providers' own price
 * lists (price-list.ts): a region a list covers is priced by the list alone, the bundled figures
 * of that provider and region are dropped (docs/catalog.md, Stored price lists). References
 * between files are checked (a savings plan rate must match a priced instance, an offer is listed
 * once); throws CatalogDataError naming the entry.
 */
export function assembleCatalog(data: ValidCatalogData, lists: readonly RegionPriceList[] = []): Catalog {
  const covered = new Set(lists.map((list) => `${list.provider}|${list.region}`));
  const uncovered = (provider: Provider, region: string) => !covered.has(`${provider}|${region}`);
  const bundledInstances: PricedInstance[] = [];
  const offers: Offer[] = [];
  for (const file of Object.values(data.reservations)) {
    const built = reservationCatalog(file);
    bundledInstances.push(...built.instances);
    offers.push(
      ...built.offers.filter(
        (offer) => offer.scope.kind === 'spend' || uncovered(offer.provider, offer.scope.region),
      ),
    );
  }
  const instances = [
    ...bundledInstances.filter((instance) => uncovered(instance.provider, instance.region)),
    ...lists.flatMap(priceListInstances),
  ];
  const instancesByKey = new Map<string, PricedInstance>();
  for (const instance of instances) {
    const key = instanceKey(instance);
    if (instancesByKey.has(key)) throw new CatalogDataError(`${key} is priced twice`);
    instancesByKey.set(key, instance);
  }
  for (const list of lists) offers.push(...priceListReservationOffers(list));

  const spendFiles: SavingsPlanFile[] = [];
  for (const [name, file] of Object.entries(data.savingsPlans)) {
    for (const row of file.rates) {
      const eligible = bundledInstances.some(
        (instance) =>
          instance.provider === file.provider &&
          instance.region === row.region &&
          instance.family === row.family &&
          instance.operatingSystem === row.operatingSystem &&
          instance.tenancy === row.tenancy,
      );
      if (!eligible) {
        const what = [row.planType, row.region, row.family, row.operatingSystem, row.tenancy].join(' ');
        throw new CatalogDataError(`${name}: savings plan rate ${what} matches no priced instance`);
      }
    }
    spendFiles.push({ ...file, rates: file.rates.filter((row) => uncovered(file.provider, row.region)) });
  }
  for (const provider of new Set(lists.map((list) => list.provider))) {
    const listed = spendPlanFile(provider, lists);
    if (listed) spendFiles.push(listed);
  }
  offers.push(...mergedSpendOffers(spendFiles.flatMap(savingsPlanOffers)));

  for (const file of Object.values(data.guaranteed)) {
    offers.push(...guaranteedOffers(file, offers));
  }

  const offersById = new Map<string, Offer>();
  for (const offer of offers) {
    if (offersById.has(offer.id))
      throw new CatalogDataError(`offer ${offer.providerOfferingId} is listed twice`);
    offersById.set(offer.id, offer);
  }
  const offersByProvider = groupByProvider(offers);
  const instancesByProvider = groupByProvider(instances);

  return {
    offers: (provider) => (provider ? (offersByProvider.get(provider) ?? []) : offers),
    offerById: (id) => offersById.get(id),
    ondemandPrice: (instance) => instancesByKey.get(instanceKey(instance))?.ondemandPrice,
    pricedInstance: (instance) => instancesByKey.get(instanceKey(instance)),
    pricedInstances: (provider) => (provider ? (instancesByProvider.get(provider) ?? []) : instances),
  };
}

/**
 * One offer per savings plan, term and payment option: the bundled rows of regions no list covers
 * and the lists' rows are two files naming the same plans (same ids), so their rates are joined.
 */
function mergedSpendOffers(offers: readonly Offer[]): Offer[] {
  const byId = new Map<string, Offer>();
  for (const offer of offers) {
    const known = byId.get(offer.id);
    if (offer.scope.kind !== 'spend' || known?.scope.kind !== 'spend') {
      byId.set(offer.id, offer);
      continue;
    }
    byId.set(offer.id, {
      ...known,
      scope: { kind: 'spend', rates: [...known.scope.rates, ...offer.scope.rates] },
      source: `${known.source}; ${offer.source}`,
      illustrative: known.illustrative || offer.illustrative,
    });
  }
  return [...byId.values()].filter((offer) => offer.scope.kind !== 'spend' || offer.scope.rates.length > 0);
}

function instanceKey(instance: InstanceKey): string {
  return [
    instance.provider,
    instance.region,
    instance.instanceType,
    instance.operatingSystem,
    instance.tenancy,
    instance.deploymentOption === 'Multi-AZ' ? 'Multi-AZ' : '',
  ].join('|');
}

function groupByProvider<T extends { readonly provider: Provider }>(items: readonly T[]): Map<Provider, T[]> {
  const groups = new Map<Provider, T[]>();
  for (const item of items) {
    const group = groups.get(item.provider);
    if (group) group.push(item);
    else groups.set(item.provider, [item]);
  }
  return groups;
}
