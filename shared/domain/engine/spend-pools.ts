/**
 * Savings-plan pools: the streams of one account a spend commitment covers, in commitment dollars.
 * A stream is eligible when one of the plan's rate entries matches it (the first match gives its
 * discount d) and it has an on-demand price; one unit of its usage then takes p * (1 - d)
 * commitment dollars and one commitment dollar covers 1 / (1 - d) on-demand dollars, so the pool's
 * tiers, highest value first, apply the plan to the highest discount first.
 */
import { buildPool, type CoveragePool } from './coverage-pool';
import { instanceFamily } from './instance-family';
import type { SpendRate, UsageStream } from './model';

/** The discount of the first rate entry matching the stream; null if none does. */
function spendDiscount(rates: readonly SpendRate[], stream: UsageStream): number | null {
  const family = instanceFamily(stream.provider, stream.instanceType);
  const rate = rates.find(
    (entry) =>
      (entry.region === undefined || entry.region === stream.region) &&
      (entry.family === undefined || entry.family === family) &&
      (entry.instanceType === undefined || entry.instanceType === stream.instanceType) &&
      (entry.operatingSystem === undefined || entry.operatingSystem === stream.operatingSystem) &&
      (entry.tenancy === undefined || entry.tenancy === stream.tenancy),
  );
  return rate ? rate.discount : null;
}

/** Identifies a rate table: plans with equal tables cover the same usage the same way. */
export function rateTableKey(rates: readonly SpendRate[]): string {
  return JSON.stringify(rates);
}

/** The pool of `candidates` (stream indices) that `rates` covers; null when none is eligible. */
export function spendPool(
  streams: readonly UsageStream[],
  candidates: readonly number[],
  rates: readonly SpendRate[],
): CoveragePool | null {
  const members: number[] = [];
  const weights: number[] = [];
  const values: number[] = [];
  for (const index of candidates) {
    const stream = streams[index] as UsageStream;
    const discount = spendDiscount(rates, stream);
    if (discount === null || stream.ondemandPrice <= 0) continue;
    members.push(index);
    weights.push(stream.ondemandPrice * (1 - discount));
    values.push(1 / (1 - discount));
  }
  return members.length > 0 ? buildPool(members, weights, values) : null;
}
