import { CatalogDataError, PROVIDER_TERM_HOURS } from './catalog-terms';
import {
  emptySkips,
  type ListedInstance,
  type ListedReservation,
  type ListedSpendRate,
  priceOf,
  type ReadSkips,
  skip,
  termOf,
} from './price-list';

/**
 * The reader of the Azure Retail Prices API's pages (`https://prices.azure.com/api/retail/prices`,
 * docs/catalog.md, Azure Retail Prices): each page `{ Items, NextPageLink, Count }`, each item one
 * meter's price in one region. Read: `Virtual Machines` priced per `1 Hour`, not Spot or Low
 * Priority, by `armRegionName` and `armSkuName`:
 * - `type` `Consumption`: pay-as-you-go; `productName` ending in `Windows` is the Windows price
 *   (compute and licence), any other the Linux one; its `savingsPlan` array gives the Azure savings
 *   plan's hourly rate per `term` (`1 Year`, `3 Years`) of that meter;
 * - `type` `Reservation`: a reserved VM instance, `retailPrice` the whole term's price for one
 *   instance (`reservationTerm` `1 Year` or `3 Years`), paid upfront or monthly at the same total.
 * Fed page by page; `result(region)` gives one region's prices.
 */
export interface AzureRetailPricesReader {
  page(json: unknown, name: string): { nextPageLink: string | null; items: number };
  regions(): string[];
  result(region: string): AzureRegionPrices;
  readonly skips: ReadSkips;
}

export interface AzureRegionPrices {
  readonly instances: readonly ListedInstance[];
  readonly reservations: readonly ListedReservation[];
  readonly spendRates: readonly ListedSpendRate[];
  /** The latest `effectiveStartDate` of the prices read. */
  readonly effectiveDate: string;
}

interface RetailItem {
  readonly currencyCode?: string;
  readonly retailPrice?: number;
  readonly unitPrice?: number;
  readonly armRegionName?: string;
  readonly armSkuName?: string;
  readonly meterName?: string;
  readonly skuName?: string;
  readonly productName?: string;
  readonly serviceName?: string;
  readonly unitOfMeasure?: string;
  readonly type?: string;
  readonly reservationTerm?: string;
  readonly effectiveStartDate?: string;
  readonly savingsPlan?: readonly {
    readonly retailPrice?: number;
    readonly unitPrice?: number;
    readonly term?: string;
  }[];
}

const SERVICE = 'Virtual Machines';
export const AZURE_SAVINGS_PLAN = 'AzureSavingsPlanForCompute';

interface RegionAccumulator {
  instances: Map<string, ListedInstance>;
  reservations: Map<string, ListedReservation>;
  spendRates: Map<string, ListedSpendRate>;
  effectiveDate: string;
}

export function createAzureRetailPricesReader(): AzureRetailPricesReader {
  const regions = new Map<string, RegionAccumulator>();
  const skips = emptySkips();

  function regionOf(name: string): RegionAccumulator {
    let region = regions.get(name);
    if (!region) {
      region = { instances: new Map(), reservations: new Map(), spendRates: new Map(), effectiveDate: '' };
      regions.set(name, region);
    }
    return region;
  }

  function item(entry: RetailItem, where: string): void {
    const reason = notPlanned(entry);
    if (reason) {
      skip(skips, reason, `${where}: ${entry.meterName ?? ''} ${entry.armRegionName ?? ''}`);
      return;
    }
    const instanceType = entry.armSkuName as string;
    const region = regionOf(entry.armRegionName as string);
    const price = priceOf(entry.retailPrice) as number;
    if ((entry.effectiveStartDate ?? '') > region.effectiveDate)
      region.effectiveDate = entry.effectiveStartDate ?? '';
    const operatingSystem = /Windows$/.test(entry.productName ?? '') ? 'Windows' : 'Linux';
    if (entry.type === 'Consumption') {
      const key = `${instanceType}|${operatingSystem}`;
      const known = region.instances.get(key);
      if (known && known.ondemand !== price) {
        skip(skips, 'priced_twice', `${where}: ${key}`);
        return;
      }
      region.instances.set(key, {
        service: SERVICE,
        instanceType,
        operatingSystem,
        tenancy: 'Shared',
        ondemand: price,
      });
      // The savings plan covers the compute meter: its rates stand on the Linux meter's items.
      if (operatingSystem !== 'Linux') return;
      for (const plan of entry.savingsPlan ?? []) {
        const term = termOf(plan.term ?? '');
        const rate = priceOf(plan.retailPrice ?? plan.unitPrice);
        if (!term || rate === undefined) {
          skip(skips, 'unknown_savings_plan_term', `${where}: ${instanceType} ${plan.term ?? ''}`);
          continue;
        }
        for (const paymentOption of ['All Upfront', 'No Upfront'] as const) {
          region.spendRates.set(`${instanceType}|${term}|${paymentOption}`, {
            planType: AZURE_SAVINGS_PLAN,
            term,
            paymentOption,
            instanceType,
            operatingSystem: 'Linux',
            tenancy: 'Shared',
            rate,
          });
        }
      }
      return;
    }
    const term = termOf(entry.reservationTerm ?? '');
    if (!term) {
      skip(skips, 'unknown_reservation_term', `${where}: ${instanceType} ${entry.reservationTerm ?? ''}`);
      return;
    }
    // One price for the term: paid at purchase, or monthly at the same total (no extra cost).
    const hours = PROVIDER_TERM_HOURS[term];
    for (const [paymentOption, upfront, recurring] of [
      ['All Upfront', price, 0],
      ['No Upfront', 0, price / hours],
    ] as const) {
      region.reservations.set(`${instanceType}|${term}|${paymentOption}`, {
        service: SERVICE,
        contractType: 'vm',
        term,
        paymentOption,
        instanceType,
        operatingSystem: 'Linux',
        tenancy: 'Shared',
        upfront,
        recurring,
      });
    }
  }

  return {
    skips,
    page(json, name) {
      const page = json as { Items?: unknown; NextPageLink?: unknown } | null;
      if (!page || !Array.isArray(page.Items)) {
        throw new CatalogDataError(`Azure Retail Prices page ${name}: no Items list`);
      }
      page.Items.forEach((entry: RetailItem, index) => {
        item(entry, `${name} item ${index}`);
      });
      const next = page.NextPageLink;
      return {
        nextPageLink: typeof next === 'string' && next !== '' ? next : null,
        items: page.Items.length,
      };
    },
    regions: () => [...regions.keys()].sort(),
    result(name) {
      const region = regions.get(name);
      if (!region) return { instances: [], reservations: [], spendRates: [], effectiveDate: '' };
      const linux = new Set(
        [...region.instances.values()]
          .filter((i) => i.operatingSystem === 'Linux')
          .map((i) => i.instanceType),
      );
      return {
        instances: [...region.instances.values()],
        // A reservation or plan rate of a size with no pay-as-you-go price cannot be valued: left out.
        reservations: [...region.reservations.values()].filter((r) => linux.has(r.instanceType)),
        spendRates: [...region.spendRates.values()].filter((r) => linux.has(r.instanceType)),
        effectiveDate: region.effectiveDate,
      };
    },
  };
}

/** Why an item is not a VM hour price the plans use; undefined when it is. */
function notPlanned(entry: RetailItem): string | undefined {
  if (entry.serviceName !== SERVICE) return 'not_virtual_machines';
  if (entry.type !== 'Consumption' && entry.type !== 'Reservation') return 'not_consumption_or_reservation';
  if (entry.unitOfMeasure !== '1 Hour') return 'not_hourly';
  if (/Spot|Low Priority/.test(`${entry.skuName ?? ''} ${entry.meterName ?? ''}`))
    return 'spot_or_low_priority';
  if (!entry.armSkuName || !entry.armRegionName) return 'no_sku_or_region';
  if ((entry.currencyCode ?? 'USD') !== 'USD') return 'not_usd';
  if (priceOf(entry.retailPrice) === undefined || entry.retailPrice === 0) return 'no_price';
  return undefined;
}
