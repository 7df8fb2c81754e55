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

/** The discount of the first rate entry matching the stream (of `family`); null if none does. */
function spendDiscount(rates: readonly SpendRate[], stream: UsageStream, family: string): number | null {
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
  /** One stream of each subject, and its instance family. */
  readonly samples: readonly UsageStream[];
  readonly families: readonly string[];
}

export function rateSubjects(streams: readonly UsageStream[]): RateSubjects {
  const indices = new Map<string, number>();
  const samples: UsageStream[] = [];
  const families: string[] = [];
  const subjectOf = new Int32Array(streams.length);
  streams.forEach((stream, s) => {
    const key = `${stream.provider}\u001f${stream.region}\u001f${stream.instanceType}\u001f${stream.operatingSystem}\u001f${stream.tenancy}`;
    let subject = indices.get(key);
    if (subject === undefined) {
      subject = samples.length;
      indices.set(key, subject);
      samples.push(stream);
      families.push(instanceFamily(stream.provider, stream.instanceType));
    }
    subjectOf[s] = subject;
  });
  return { subjectOf, samples, families };
}

/** Marks a subject no rate entry matches (discounts are in [0, 1)). */
const INELIGIBLE = -1;

/** The pool of `candidates` (stream indices) that `rates` covers; null when none is eligible. */
export function spendPool(
  streams: readonly UsageStream[],
  subjects: RateSubjects,
  candidates: readonly number[],
  rates: readonly SpendRate[],
): CoveragePool | null {
  // Per subject: its discount, INELIGIBLE, or NaN until first needed.
  const discounts = new Float64Array(subjects.samples.length).fill(Number.NaN);
  const discountOf = (index: number): number => {
    const subject = subjects.subjectOf[index] as number;
    let discount = discounts[subject] as number;
    if (Number.isNaN(discount)) {
      const sample = subjects.samples[subject] as UsageStream;
      discount = spendDiscount(rates, sample, subjects.families[subject] as string) ?? INELIGIBLE;
      discounts[subject] = discount;
    }
    return (streams[index] as UsageStream).ondemandPrice > 0 ? discount : INELIGIBLE;
  };
  let count = 0;
  for (const index of candidates) if (discountOf(index) !== INELIGIBLE) count++;
  if (count === 0) return null;
  const members = new Int32Array(count);
  const weights = new Float64Array(count);
  const values = new Float64Array(count);
  count = 0;
  for (const index of candidates) {
    const discount = discountOf(index);
    if (discount === INELIGIBLE) continue;
    members[count] = index;
    weights[count] = (streams[index] as UsageStream).ondemandPrice * (1 - discount);
    values[count] = 1 / (1 - discount);
    count++;
  }
  return buildPool(members, weights, values);
}
