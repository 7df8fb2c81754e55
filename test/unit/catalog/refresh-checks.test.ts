import { describe, expect, it } from 'vitest';
import type { RegionPriceList } from '../../../shared/domain/catalog/price-list';
import { summarizeRegion, suspiciousRegion } from '../../../shared/domain/catalog/refresh-checks';

function list(prices: Readonly<Record<string, number>>): RegionPriceList {
  return {
    provider: 'aws',
    region: 'us-east-1',
    source: 'test',
    published: {},
    instances: Object.entries(prices).map(([instanceType, ondemand]) => ({
      service: 'AmazonEC2',
      instanceType,
      operatingSystem: 'Linux',
      tenancy: 'Shared',
      ondemand,
    })),
    reservations: [],
    spendRates: [],
  };
}

const before = list({ 'm5.large': 0.096, 'm5.xlarge': 0.192, 't3.micro': 0.0104, 'c5.large': 0.085 });

describe('refresh checks', () => {
  it('accepts a first list, and a list whose prices moved less than half', () => {
    expect(suspiciousRegion(before, undefined)).toBeUndefined();
    expect(
      suspiciousRegion(
        list({ 'm5.large': 0.05, 'm5.xlarge': 0.1, 't3.micro': 0.0104, 'c5.large': 0.085 }),
        before,
      ),
    ).toBeUndefined();
  });

  it('refuses an empty region', () => {
    expect(suspiciousRegion(list({}), before)).toBe('aws us-east-1: the price list prices no instance');
    expect(suspiciousRegion(list({}), undefined)).toBe('aws us-east-1: the price list prices no instance');
  });

  it('refuses prices that fell by more than half over the instances both price, new ones aside', () => {
    // Summed: 0.3834 before, 0.1900 now (an added expensive type does not hide the fall).
    const halved = list({
      'm5.large': 0.04,
      'm5.xlarge': 0.08,
      't3.micro': 0.005,
      'c5.large': 0.065,
      'x2iedn.32xlarge': 26.676,
    });
    expect(suspiciousRegion(halved, before)).toBe(
      'aws us-east-1: on-demand prices fell by 50% against the current catalog',
    );
    expect(
      suspiciousRegion(
        list({ 'm5.large': 0.049, 'm5.xlarge': 0.096, 't3.micro': 0.0052, 'c5.large': 0.0425 }),
        before,
      ),
    ).toBeUndefined();
  });

  it('refuses a region that lost more than half of its priced instances', () => {
    expect(suspiciousRegion(list({ 'm5.large': 0.096 }), before)).toBe(
      'aws us-east-1: 1 of the 4 instances priced before are still priced',
    );
  });

  it('gives equal digests to equal prices only', () => {
    expect(summarizeRegion(before).digest).toBe(
      summarizeRegion(
        list({ ...Object.fromEntries(before.instances.map((i) => [i.instanceType, i.ondemand])) }),
      ).digest,
    );
    expect(summarizeRegion(before).digest).not.toBe(
      summarizeRegion(list({ 'm5.large': 0.097, 'm5.xlarge': 0.192, 't3.micro': 0.0104, 'c5.large': 0.085 }))
        .digest,
    );
  });
});
