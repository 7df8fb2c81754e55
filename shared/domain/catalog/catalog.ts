import * as z from 'zod/mini';
import type { Offer, Provider } from '../engine/model';
import {
  CatalogDataError,
  guaranteedOfferFileSchema,
  reservationFileSchema,
  savingsPlanFileSchema,
} from './catalog-schema';
import { guaranteedOffers } from './guaranteed-offers';
import { unpackCatalog } from './packed-data';
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

/** Raw catalog data, each file's parsed JSON under its file name (the name appears in errors). */
export interface CatalogData {
  readonly reservations: Readonly<Record<string, unknown>>;
  readonly savingsPlans: Readonly<Record<string, unknown>>;
  readonly guaranteed: Readonly<Record<string, unknown>>;
}

/** The data files bundled with the service (packed: ./packed-data.ts). */
const bundledFiles = unpackCatalog();

export const BUNDLED_CATALOG_DATA: CatalogData = {
  reservations: {
    'aws-ec2-reserved-instances.json': bundledFiles['aws-ec2-reserved-instances.json'],
    'aws-rds-reserved-instances.json': bundledFiles['aws-rds-reserved-instances.json'],
    'azure-vm-reservations.json': bundledFiles['azure-vm-reservations.json'],
    'gcp-committed-use-discounts.json': bundledFiles['gcp-committed-use-discounts.json'],
  },
  savingsPlans: {
    'aws-savings-plans.json': bundledFiles['aws-savings-plans.json'],
    'azure-savings-plan.json': bundledFiles['azure-savings-plan.json'],
  },
  guaranteed: { 'guaranteed-offers.json': bundledFiles['guaranteed-offers.json'] },
};

let bundledCatalog: Catalog | undefined;

/** The catalog of the bundled data, validated on first use and shared afterwards. */
export function loadCatalog(): Catalog {
  bundledCatalog ??= buildCatalog(BUNDLED_CATALOG_DATA);
  return bundledCatalog;
}

/** Validates catalog data and builds the catalog; throws CatalogDataError naming the bad entry. */
export function buildCatalog(data: CatalogData): Catalog {
  const instances: PricedInstance[] = [];
  const offers: Offer[] = [];
  for (const [name, raw] of Object.entries(data.reservations)) {
    const built = reservationCatalog(parseFile(reservationFileSchema, name, raw));
    instances.push(...built.instances);
    offers.push(...built.offers);
  }
  const instancesByKey = new Map<string, PricedInstance>();
  for (const instance of instances) {
    const key = instanceKey(instance);
    if (instancesByKey.has(key)) throw new CatalogDataError(`${key} is priced twice`);
    instancesByKey.set(key, instance);
  }

  for (const [name, raw] of Object.entries(data.savingsPlans)) {
    const file = parseFile(savingsPlanFileSchema, name, raw);
    for (const row of file.rates) {
      const eligible = instances.some(
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
    offers.push(...savingsPlanOffers(file));
  }

  for (const [name, raw] of Object.entries(data.guaranteed)) {
    offers.push(...guaranteedOffers(parseFile(guaranteedOfferFileSchema, name, raw), offers));
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

function parseFile<T>(schema: z.ZodMiniType<T>, name: string, raw: unknown): T {
  const result = schema.safeParse(raw);
  if (!result.success) {
    throw new CatalogDataError(`catalog data ${name} is invalid:\n${z.prettifyError(result.error)}`, {
      cause: result.error,
    });
  }
  return result.data;
}

function instanceKey(instance: InstanceKey): string {
  return [
    instance.provider,
    instance.region,
    instance.instanceType,
    instance.operatingSystem,
    instance.tenancy,
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
