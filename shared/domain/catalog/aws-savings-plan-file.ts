import type { AwsListedInstance } from './aws-offer-file';
import { CatalogDataError } from './catalog-terms';
import {
  emptySkips,
  type ListedSpendRate,
  paymentOptionOf,
  priceOf,
  type ReadSkips,
  skip,
  termOf,
} from './price-list';

/**
 * The AWS Price List's region index files (docs/catalog.md, AWS price list files):
 * `offers/v1.0/aws/<offer>/current/region_index.json` lists `regions.<code>.currentVersionUrl`;
 * `savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/region_index.json` lists
 * `regions[].versionUrl`. Both give each region's file path on the same host.
 */
export interface RegionFile {
  readonly regionCode: string;
  /** Path on the price list host, e.g. `/offers/v1.0/aws/AmazonEC2/20240111234520/us-east-1/index.json`. */
  readonly path: string;
}

export function readOfferRegionIndex(json: unknown): RegionFile[] {
  const regions = (json as { regions?: unknown } | null)?.regions;
  if (!regions || typeof regions !== 'object' || Array.isArray(regions)) {
    throw new CatalogDataError('AWS offer region index: no regions object');
  }
  return Object.values(regions as Record<string, { regionCode?: unknown; currentVersionUrl?: unknown }>).map(
    (entry) => {
      if (typeof entry.regionCode !== 'string' || typeof entry.currentVersionUrl !== 'string') {
        throw new CatalogDataError(
          'AWS offer region index: a region without regionCode or currentVersionUrl',
        );
      }
      return { regionCode: entry.regionCode, path: entry.currentVersionUrl };
    },
  );
}

export function readSavingsPlanRegionIndex(json: unknown): RegionFile[] {
  const regions = (json as { regions?: unknown } | null)?.regions;
  if (!Array.isArray(regions)) throw new CatalogDataError('AWS Savings Plans region index: no regions list');
  return regions.map((entry: { regionCode?: unknown; versionUrl?: unknown }) => {
    if (typeof entry.regionCode !== 'string' || typeof entry.versionUrl !== 'string') {
      throw new CatalogDataError('AWS Savings Plans region index: a region without regionCode or versionUrl');
    }
    return { regionCode: entry.regionCode, path: entry.versionUrl };
  });
}

/** `/x/y/index.json` -> `/x/y/index.csv`: AWS serves every offer file in both forms. */
export function csvPathOf(jsonPath: string): string {
  return jsonPath.replace(/\.json$/, '.csv');
}

interface SavingsPlanProduct {
  readonly sku?: string;
  readonly productFamily?: string;
  readonly attributes?: Readonly<Record<string, string>>;
}

interface SavingsPlanTerm {
  readonly sku?: string;
  readonly leaseContractLength?: { readonly duration?: number | string; readonly unit?: string };
  readonly rates?: readonly {
    readonly discountedUsageType?: string;
    readonly discountedOperation?: string;
    readonly discountedServiceCode?: string;
    readonly discountedRate?: { readonly price?: string; readonly currency?: string };
  }[];
}

export interface SavingsPlanFile {
  readonly version: string;
  readonly publicationDate: string;
  readonly regionCode: string;
  readonly rates: readonly ListedSpendRate[];
  readonly skips: ReadSkips;
}

const PLAN_TYPES = new Set(['ComputeSavingsPlans', 'EC2InstanceSavingsPlans']);

/**
 * A region's Savings Plans file (`AWSComputeSavingsPlan`, JSON as AWS serves it: `products` with
 * `productFamily` `ComputeSavingsPlans` or `EC2InstanceSavingsPlans` and their `purchaseOption` and
 * `purchaseTerm`; `terms.savingsPlan` with one rate per discounted usage type and operation).
 * The EC2 rates are kept for the instances the region's EC2 file prices: a rate names its instance
 * by the on-demand usage type and operation (`USE2-BoxUsage:m5.large`, `RunInstances:0002`), which
 * is how a rate of a Local Zone or another platform is told apart.
 */
export function readSavingsPlanFile(json: unknown, ec2: readonly AwsListedInstance[]): SavingsPlanFile {
  const file = json as {
    version?: string;
    publicationDate?: string;
    regionCode?: string;
    products?: readonly SavingsPlanProduct[];
    terms?: { savingsPlan?: readonly SavingsPlanTerm[] };
  } | null;
  if (!file || !Array.isArray(file.products) || !Array.isArray(file.terms?.savingsPlan)) {
    throw new CatalogDataError('AWS Savings Plans file: no products or terms.savingsPlan');
  }
  const byUsage = new Map<string, AwsListedInstance>();
  for (const instance of ec2) byUsage.set(`${instance.usageType}|${instance.operation}`, instance);
  const products = new Map<string, SavingsPlanProduct>();
  for (const product of file.products) if (product.sku) products.set(product.sku, product);

  const skips = emptySkips();
  const rates: ListedSpendRate[] = [];
  for (const term of file.terms?.savingsPlan ?? []) {
    const product = products.get(term.sku ?? '');
    const planType = product?.productFamily ?? '';
    if (!PLAN_TYPES.has(planType)) {
      skip(skips, 'not_compute_or_ec2_instance_plan', term.sku ?? '');
      continue;
    }
    const years = termOf(
      String(term.leaseContractLength?.duration ?? product?.attributes?.purchaseTerm ?? ''),
    );
    const paymentOption = paymentOptionOf(product?.attributes?.purchaseOption ?? '');
    if (!years || !paymentOption) {
      skip(skips, 'unknown_term', term.sku ?? '');
      continue;
    }
    for (const rate of term.rates ?? []) {
      if (rate.discountedServiceCode !== 'AmazonEC2') continue;
      const instance = byUsage.get(`${rate.discountedUsageType}|${rate.discountedOperation}`);
      const price = priceOf(rate.discountedRate?.price);
      if (!instance) {
        skip(skips, 'no_listed_instance', `${rate.discountedUsageType} ${rate.discountedOperation}`);
        continue;
      }
      if (price === undefined || rate.discountedRate?.currency !== 'USD') {
        skip(skips, 'not_a_usd_price', `${rate.discountedUsageType} ${rate.discountedOperation}`);
        continue;
      }
      rates.push({
        planType,
        term: years,
        paymentOption,
        instanceType: instance.instanceType,
        operatingSystem: instance.operatingSystem,
        tenancy: instance.tenancy,
        rate: price,
      });
    }
  }
  return {
    version: file.version ?? '',
    publicationDate: file.publicationDate ?? '',
    regionCode: file.regionCode ?? '',
    rates,
    skips,
  };
}
