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

/** Whether `entry` matches the stream (of `family`) on every field it names. */
function rateMatches(entry: SpendRate, stream: UsageStream, family: string): boolean {
  return (
    (entry.region === undefined || entry.region === stream.region) &&
    (entry.family === undefined || entry.family === family) &&
    (entry.instanceType === undefined || entry.instanceType === stream.instanceType) &&
    (entry.operatingSystem === undefined || entry.operatingSystem === stream.operatingSystem) &&
    (entry.tenancy === undefined || entry.tenancy === stream.tenancy)
  );
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
  /** Per region, per instance family: the subjects of that region and family. */
  readonly places: SubjectPlaces;
}

type SubjectPlaces = ReadonlyMap<string, ReadonlyMap<string, readonly number[]>>;

export function rateSubjects(kinds: StreamKinds): RateSubjects {
  const families = kinds.samples.map((sample) => instanceFamily(sample.provider, sample.instanceType));
  const places = new Map<string, Map<string, number[]>>();
  kinds.samples.forEach((sample, subject) => {
    const family = families[subject] as string;
    let byFamily = places.get(sample.region);
    if (!byFamily) {
      byFamily = new Map();
      places.set(sample.region, byFamily);
    }
    const list = byFamily.get(family);
    if (list) list.push(subject);
    else byFamily.set(family, [subject]);
  });
  return { subjectOf: kinds.kindOf, samples: kinds.samples, families, places };
}

/** Some streams (the candidates of a pool) by subject: each subject's streams in ascending order. */
export interface SubjectStreams {
  readonly bySubject: ReadonlyMap<number, Int32Array>;
}

export function subjectStreams(subjects: RateSubjects, candidates: readonly number[]): SubjectStreams {
  const lists = new Map<number, number[]>();
  for (const s of [...candidates].sort((a, b) => a - b)) {
    const subject = subjects.subjectOf[s] as number;
    const list = lists.get(subject);
    if (list) list.push(s);
    else lists.set(subject, [s]);
  }
  return { bySubject: new Map([...lists].map(([subject, list]) => [subject, Int32Array.from(list)])) };
}

/** A rate table's entry positions by the region and family they name (undefined: any). */
type EntryIndex = Map<string | undefined, Map<string | undefined, number[]>>;

function entryIndex(rates: readonly SpendRate[]): EntryIndex {
  const index: EntryIndex = new Map();
  rates.forEach((entry, position) => {
    let families = index.get(entry.region);
    if (!families) {
      families = new Map();
      index.set(entry.region, families);
    }
    const list = families.get(entry.family);
    if (list) list.push(position);
    else families.set(entry.family, [position]);
  });
  return index;
}

/** The subjects a rate table covers, ascending, and the discount it gives each. */
export interface SubjectDiscounts {
  readonly subjects: Int32Array;
  readonly discounts: Float64Array;
}

/**
 * The discount a rate table gives each subject some entry matches: the discount of the table's
 * first entry matching it. Worked out once per table and shared by every account's pool of it.
 * Entries are indexed by the region and family they name, so only the subjects of those regions
 * and families are matched, each against the entries that can match it: a wide catalog has
 * thousands of tables and of subjects, each table covering a few of them.
 */
export function subjectDiscounts(subjects: RateSubjects, rates: readonly SpendRate[]): SubjectDiscounts {
  const { places } = subjects;
  const index = entryIndex(rates);
  const candidates = new Set<number>();
  const add = (list: readonly number[] | undefined) => {
    if (list) for (const subject of list) candidates.add(subject);
  };
  for (const [region, families] of index) {
    const regions = region === undefined ? [...places.values()] : [places.get(region)];
    for (const family of families.keys()) {
      for (const byFamily of regions) {
        if (!byFamily) continue;
        if (family !== undefined) add(byFamily.get(family));
        else for (const list of byFamily.values()) add(list);
      }
    }
  }
  const covered: number[] = [];
  const discounts: number[] = [];
  for (const subject of Int32Array.from(candidates).sort()) {
    const sample = subjects.samples[subject] as UsageStream;
    const family = subjects.families[subject] as string;
    // The first matching entry: the least position matching among the four lists that can hold it.
    let first = -1;
    for (const byFamily of [index.get(sample.region), index.get(undefined)]) {
      if (!byFamily) continue;
      for (const list of [byFamily.get(family), byFamily.get(undefined)]) {
        if (!list) continue;
        for (const position of list) {
          if (first !== -1 && position >= first) break;
          if (rateMatches(rates[position] as SpendRate, sample, family)) {
            first = position;
            break;
          }
        }
      }
    }
    if (first === -1) continue;
    covered.push(subject);
    discounts.push((rates[first] as SpendRate).discount);
  }
  return { subjects: Int32Array.from(covered), discounts: Float64Array.from(discounts) };
}

/**
 * The pool of the `candidates` that a rate table covers (`covered`: subjectDiscounts of it); null
 * when none is eligible. Tiers highest value first, each tier's members in ascending stream order.
 * `prices`: per stream, p.
 */
export function spendPool(
  prices: Float64Array,
  subjects: RateSubjects,
  candidates: SubjectStreams,
  covered: SubjectDiscounts,
): CoveragePool | null {
  // The eligible subjects' streams by tier value.
  const byValue = new Map<number, Int32Array[]>();
  const discountOf = new Map<number, number>();
  let size = 0;
  for (let k = 0; k < covered.subjects.length; k++) {
    const subject = covered.subjects[k] as number;
    const part = candidates.bySubject.get(subject);
    if (!part) continue;
    const discount = covered.discounts[k] as number;
    discountOf.set(subject, discount);
    const value = 1 / (1 - discount);
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
      tierWeights[k] =
        (prices[s] as number) * (1 - (discountOf.get(subjects.subjectOf[s] as number) as number));
    }
    tiers.push({ value, offset, members: tierMembers, weights: tierWeights });
  }
  return end === 0 ? null : { tiers, members: members.subarray(0, end) };
}
