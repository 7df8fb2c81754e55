/**
 * Savings-plan pools: the streams of one account a spend commitment covers, in commitment dollars.
 * A stream is eligible when one of the plan's rate entries matches it (the first match gives its
 * discount d) and it has an on-demand price; one unit of its usage then takes p * (1 - d)
 * commitment dollars and one commitment dollar covers 1 / (1 - d) on-demand dollars, so the pool's
 * tiers, highest value first, apply the plan to the highest discount first.
 */

import { instanceFamily } from '../shapes/instance-family';
import type { SpendRate, UsageStream } from '../shapes/model';
import type { CoveragePool, PoolTier } from './coverage-pool';
import type { StreamKinds } from './stream-kinds';

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
 * What rate entries match on (region, family, instance type, OS, tenancy) is the same for all streams
 * of a kind (stream-kinds.ts): a rate table is matched once per kind, not per stream.
 */
export interface RateSubjects {
  /** Per stream: the index of its subject (its kind). */
  readonly subjectOf: Int32Array;
  /** One stream of each subject, and its instance family. */
  readonly samples: readonly UsageStream[];
  readonly families: readonly string[];
}

export function rateSubjects(kinds: StreamKinds): RateSubjects {
  return {
    subjectOf: kinds.kindOf,
    samples: kinds.samples,
    families: kinds.samples.map((sample) => instanceFamily(sample.provider, sample.instanceType)),
  };
}

/** Some streams (the candidates of a pool) by subject: each subject's streams in ascending order. */
export interface SubjectStreams {
  readonly subjects: readonly number[];
  readonly streams: readonly Int32Array[];
}

export function subjectStreams(subjects: RateSubjects, candidates: readonly number[]): SubjectStreams {
  const bySubject = new Map<number, number[]>();
  for (const s of [...candidates].sort((a, b) => a - b)) {
    const subject = subjects.subjectOf[s] as number;
    const list = bySubject.get(subject);
    if (list) list.push(s);
    else bySubject.set(subject, [s]);
  }
  return {
    subjects: [...bySubject.keys()],
    streams: [...bySubject.values()].map((list) => Int32Array.from(list)),
  };
}

/**
 * Per subject, the discount a rate table gives its streams (NaN: no entry matches). Worked out once
 * per table and shared by every account's pool of it: matching is a scan of the table's entries.
 */
export function subjectDiscounts(subjects: RateSubjects, rates: readonly SpendRate[]): Float64Array {
  const discounts = new Float64Array(subjects.samples.length);
  for (let subject = 0; subject < discounts.length; subject++) {
    const sample = subjects.samples[subject] as UsageStream;
    discounts[subject] = spendDiscount(rates, sample, subjects.families[subject] as string) ?? Number.NaN;
  }
  return discounts;
}

/**
 * The pool of the `candidates` that a rate table covers (`discounts`: subjectDiscounts of it); null
 * when none is eligible. Tiers highest value first, each tier's members in ascending stream order.
 * `prices`: per stream, p.
 */
export function spendPool(
  prices: Float64Array,
  subjects: RateSubjects,
  candidates: SubjectStreams,
  discounts: Float64Array,
): CoveragePool | null {
  // The eligible subjects' streams by tier value.
  const byValue = new Map<number, Int32Array[]>();
  let size = 0;
  for (let k = 0; k < candidates.subjects.length; k++) {
    const discount = discounts[candidates.subjects[k] as number] as number;
    if (Number.isNaN(discount)) continue;
    const value = 1 / (1 - discount);
    const part = candidates.streams[k] as Int32Array;
    const parts = byValue.get(value);
    if (parts) parts.push(part);
    else byValue.set(value, [part]);
    size += part.length;
  }
  const members = new Int32Array(size);
  const weights = new Float64Array(size);
  const tiers: PoolTier[] = [];
  let end = 0;
  for (const value of [...byValue.keys()].sort((a, b) => b - a)) {
    const offset = end;
    for (const part of byValue.get(value) as Int32Array[]) {
      for (let k = 0; k < part.length; k++) {
        const s = part[k] as number;
        if ((prices[s] as number) > 0) members[end++] = s;
      }
    }
    if (end === offset) continue;
    const tierMembers = members.subarray(offset, end).sort();
    const tierWeights = weights.subarray(offset, end);
    for (let k = 0; k < tierMembers.length; k++) {
      const s = tierMembers[k] as number;
      tierWeights[k] = (prices[s] as number) * (1 - (discounts[subjects.subjectOf[s] as number] as number));
    }
    tiers.push({ value, offset, members: tierMembers, weights: tierWeights });
  }
  return end === 0 ? null : { tiers, members: members.subarray(0, end) };
}
