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

/**
 * What rate entries match on (region, family, instance type, OS, tenancy): streams of one subject get
 * the same discount from any rate table, so a table is matched once per subject, not per stream.
 */
export interface RateSubjects {
  /** Per stream: the index of its subject. */
  readonly subjectOf: Int32Array;
  /** One stream of each subject. */
  readonly samples: readonly UsageStream[];
}

export function rateSubjects(streams: readonly UsageStream[]): RateSubjects {
  const indices = new Map<string, number>();
  const samples: UsageStream[] = [];
  const subjectOf = new Int32Array(streams.length);
  streams.forEach((stream, s) => {
    const key = `${stream.provider}\u001f${stream.region}\u001f${stream.instanceType}\u001f${stream.operatingSystem}\u001f${stream.tenancy}`;
    let subject = indices.get(key);
    if (subject === undefined) {
      subject = samples.length;
      indices.set(key, subject);
      samples.push(stream);
    }
    subjectOf[s] = subject;
  });
  return { subjectOf, samples };
}

/** The pool of `candidates` (stream indices) that `rates` covers; null when none is eligible. */
export function spendPool(
  streams: readonly UsageStream[],
  subjects: RateSubjects,
  candidates: readonly number[],
  rates: readonly SpendRate[],
): CoveragePool | null {
  const discounts = new Map<number, number | null>();
  const members = new Int32Array(candidates.length);
  const weights = new Float64Array(candidates.length);
  const values = new Float64Array(candidates.length);
  let count = 0;
  for (const index of candidates) {
    const subject = subjects.subjectOf[index] as number;
    let discount = discounts.get(subject);
    if (discount === undefined) {
      discount = spendDiscount(rates, subjects.samples[subject] as UsageStream);
      discounts.set(subject, discount);
    }
    const stream = streams[index] as UsageStream;
    if (discount === null || stream.ondemandPrice <= 0) continue;
    members[count] = index;
    weights[count] = stream.ondemandPrice * (1 - discount);
    values[count] = 1 / (1 - discount);
    count++;
  }
  return count > 0
    ? buildPool(members.subarray(0, count), weights.subarray(0, count), values.subarray(0, count))
    : null;
}
