import { describe, expect, it } from 'vitest';
import { createAzureRetailPricesReader } from '../../../shared/domain/catalog/azure-retail-prices';
import { fixtureList, fixturePriceLists } from '../../support/price-list-fixtures';

const lists = await fixturePriceLists(['azure']);

describe('Azure Retail Prices pages', () => {
  it('reads every region the pages name, following the pages to the one without NextPageLink', () => {
    expect(lists.map((list) => list.region)).toEqual(['eastus', 'westeurope']);
    expect(fixtureList(lists, 'azure', 'eastus').published).toEqual({
      'retail-prices': '2024-10-01T00:00:00Z',
    });
  });

  it('gives pay-as-you-go prices by armSkuName, Windows from the Windows product', () => {
    const list = fixtureList(lists, 'azure', 'eastus');
    const price = (sku: string, os: string) =>
      list.instances.find((i) => i.instanceType === sku && i.operatingSystem === os)?.ondemand;
    expect(price('Standard_D2s_v5', 'Linux')).toBe(0.096);
    expect(price('Standard_D2s_v5', 'Windows')).toBe(0.188);
    expect(price('Standard_B2s', 'Linux')).toBe(0.0416);
    // Spot, Low Priority and Dev/Test meters of the same size are not its price.
    expect(list.instances.filter((i) => i.instanceType === 'Standard_D2s_v5')).toHaveLength(2);
    expect(list.instances.some((i) => i.instanceType.startsWith('Premium_SSD'))).toBe(false);
  });

  it('reads a reservation price as the whole term, paid upfront or monthly at the same total', () => {
    const list = fixtureList(lists, 'azure', 'eastus');
    const reserved = list.reservations.filter(
      (r) => r.instanceType === 'Standard_D2s_v5' && r.term === 'one_year',
    );
    expect(reserved).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ paymentOption: 'All Upfront', upfront: 505, recurring: 0 }),
        expect.objectContaining({ paymentOption: 'No Upfront', upfront: 0, recurring: 505 / 8760 }),
      ]),
    );
  });

  it('reads savings plan rates per hour and term from the savingsPlan array', () => {
    const list = fixtureList(lists, 'azure', 'westeurope');
    const rates = list.spendRates.filter(
      (r) => r.instanceType === 'Standard_D2s_v5' && r.paymentOption === 'No Upfront',
    );
    expect(Object.fromEntries(rates.map((r) => [r.term, r.rate]))).toEqual({
      one_year: 0.0866,
      three_year: 0.0586,
    });
  });

  it('refuses a page without Items and says a recording cut short names a next page', () => {
    const reader = createAzureRetailPricesReader();
    expect(() => reader.page({ value: [] }, 'page-1.json')).toThrow(/page-1.json: no Items list/);
    expect(
      reader.page({ Items: [], NextPageLink: 'https://prices.azure.com/api/retail/prices?$skip=100' }, 'p')
        .nextPageLink,
    ).toBe('https://prices.azure.com/api/retail/prices?$skip=100');
  });
});
