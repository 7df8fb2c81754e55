import { createHash } from 'node:crypto';
import type { RegionPriceList } from './price-list';

/**
 * What a refresh checks before a new catalog version becomes current (docs/catalog.md, Refresh):
 * a region with no on-demand price, or whose prices fell by more than half against the current
 * version (the instances both price, summed), or that lost more than half of its priced instances,
 * is suspicious; one suspicious region keeps the whole last good catalog.
 */

export interface RegionSummary {
  readonly provider: RegionPriceList['provider'];
  readonly region: string;
  readonly source: string;
  readonly published: Readonly<Record<string, string>>;
  readonly instances: number;
  readonly reservations: number;
  readonly spendRates: number;
  /** A digest of every price: equal digests, equal prices. */
  readonly digest: string;
}

export function summarizeRegion(list: RegionPriceList): RegionSummary {
  return {
    provider: list.provider,
    region: list.region,
    source: list.source,
    published: list.published,
    instances: list.instances.length,
    reservations: list.reservations.length,
    spendRates: list.spendRates.length,
    digest: createHash('sha256')
      .update(JSON.stringify([list.instances, list.reservations, list.spendRates]))
      .digest('base64url'),
  };
}

const instanceKey = (instance: RegionPriceList['instances'][number]) =>
  [
    instance.service,
    instance.instanceType,
    instance.operatingSystem,
    instance.tenancy,
    instance.deploymentOption ?? '',
  ].join('|');

/** Why the refreshed list of a region must not replace `previous` (undefined: nothing stored before); undefined when it may. */
export function suspiciousRegion(
  list: RegionPriceList,
  previous: RegionPriceList | undefined,
): string | undefined {
  const where = `${list.provider} ${list.region}`;
  if (list.instances.length === 0) return `${where}: the price list prices no instance`;
  if (!previous || previous.instances.length === 0) return undefined;
  const before = new Map(previous.instances.map((instance) => [instanceKey(instance), instance.ondemand]));
  let kept = 0;
  let sumBefore = 0;
  let sumNow = 0;
  for (const instance of list.instances) {
    const old = before.get(instanceKey(instance));
    if (old === undefined) continue;
    kept++;
    sumBefore += old;
    sumNow += instance.ondemand;
  }
  if (kept < previous.instances.length / 2) {
    return `${where}: ${kept} of the ${previous.instances.length} instances priced before are still priced`;
  }
  if (sumNow < sumBefore / 2) {
    const fall = Math.round((1 - sumNow / sumBefore) * 100);
    return `${where}: on-demand prices fell by ${fall}% against the current catalog`;
  }
  return undefined;
}
