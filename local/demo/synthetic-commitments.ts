import type { Catalog } from '../../shared/domain/catalog/catalog';
import { deterministicUuid } from '../../shared/domain/deterministic-id';
import type {
  ExistingCommitment,
  Offer,
  Provider,
  UsageStream,
  UsageWindow,
} from '../../shared/domain/engine/shapes/model';
import { ValidationError } from '../../shared/domain/errors';
import { isoHour, windowStartHour } from '../../shared/domain/usage/local-time';
import { type SeededRandom, seededRandom } from './seeded-random';

export interface CommitmentOptions {
  /** Same seed and options -> identical commitments. */
  readonly seed: string | number;
  readonly provider: Provider;
  /** The fleet the commitments were bought for (streams of other providers are ignored). */
  readonly streams: readonly UsageStream[];
  readonly window: UsageWindow;
  /** Offers and prices come from the catalog. */
  readonly catalog: Catalog;
  /** At most this many commitments; fewer when the fleet has nothing steady to reserve. */
  readonly count: number;
}

/** Instances of one type that ran (almost) the whole window, worth reserving. */
interface SteadyGroup {
  readonly sample: UsageStream;
  readonly instances: number;
}

/**
 * Commitments a real org would already own for this fleet: a savings plan (where the catalog has
 * one for the provider), then reservations on the fleet's steadiest instance types, one of them
 * expired before the window and one expiring inside it, the others active throughout.
 * Costs are totals for the commitment: `upfrontCost` once, `recurringCost` per hour. Spend
 * commitments that are not regional (Compute Savings Plans, the Azure savings plan) have region ''.
 */
export function generateCommitments(options: CommitmentOptions): ExistingCommitment[] {
  const { provider, window, catalog } = options;
  const startHour = windowStartHour(window);
  if (!Number.isInteger(options.count) || options.count < 0) {
    throw new ValidationError('invalid commitment count', {
      count: ['must be a whole number of at least 0'],
    });
  }
  const random = seededRandom(`commitments\u001f${options.seed}\u001f${provider}`);
  const streams = options.streams.filter((stream) => stream.provider === provider);
  const offers = catalog.offers(provider).filter((offer) => offer.lockinHours === offer.termHours);
  const commitments: ExistingCommitment[] = [];
  const add = (commitment: Omit<ExistingCommitment, 'id' | 'provider'>) => {
    const id = deterministicUuid(
      'existing-commitment',
      String(options.seed),
      provider,
      String(commitments.length),
    );
    commitments.push({ id, provider, ...commitment });
  };

  const plan = offers.find((offer) => offer.contractType === 'compute_plans' && offer.term === 'one_year');
  if (plan && streams.length > 0 && commitments.length < options.count) {
    const meanHourlySpend = streams.reduce(
      (sum, stream) => sum + stream.ondemandPrice * mean(stream.usage),
      0,
    );
    const hourlyCommitment = Math.max(0.01, roundCents(meanHourlySpend * random.between(0.1, 0.25)));
    const start = startHour - random.int(60, 240) * 24;
    add({
      accountId: mostCommonAccount(streams),
      region: '',
      contractType: plan.contractType,
      instanceType: null,
      quantity: 0,
      hourlyCommitment,
      upfrontCost: plan.upfront * hourlyCommitment,
      recurringCost: plan.recurring * hourlyCommitment,
      paymentOption: plan.paymentOption,
      ...period(start, plan.termHours),
    });
  }

  const groups = steadyGroups(streams, catalog);
  for (let g = 0; commitments.length < options.count && g < groups.length; g++) {
    const group = groups[g] as SteadyGroup;
    const offer = reservationFor(group.sample, offers, catalog, random);
    if (!offer) continue;
    const reservationIndex = commitments.length - (plan ? 1 : 0);
    const start = reservationStart(reservationIndex, startHour, window.hours, offer.termHours, random);
    const quantity = Math.max(1, Math.floor(group.instances * random.between(0.3, 0.8)));
    const unitsPerInstance =
      offer.scope.kind === 'family' ? (catalog.pricedInstance(group.sample)?.units ?? Number.NaN) : 1;
    add({
      accountId: group.sample.accountId,
      region: group.sample.region,
      contractType: offer.contractType,
      instanceType: group.sample.instanceType,
      quantity,
      hourlyCommitment: 0,
      upfrontCost: offer.upfront * unitsPerInstance * quantity,
      recurringCost: offer.recurring * unitsPerInstance * quantity,
      // What the reservation covers: the platform (or engine) and tenancy of the usage it was bought for.
      operatingSystem: group.sample.operatingSystem,
      tenancy: group.sample.tenancy,
      paymentOption: offer.paymentOption,
      ...period(start, offer.termHours),
    });
  }
  return commitments;
}

/** First reservation: expired before the window; second: expires inside it; others: cover it. */
function reservationStart(
  index: number,
  windowStart: number,
  windowHours: number,
  termHours: number,
  random: SeededRandom,
): number {
  if (index === 0) return windowStart - termHours - random.int(1, 60) * 24;
  if (index === 1) return windowStart + Math.round(windowHours * random.between(0.3, 0.7)) - termHours;
  return windowStart - Math.floor((termHours - windowHours) * random.next());
}

function period(startHour: number, termHours: number): { start: string; end: string; lockinEnd: string } {
  const end = isoHour(startHour + termHours);
  return { start: isoHour(startHour), end, lockinEnd: end };
}

/** Groups of identical instances that ran at least 95% of the window, the most valuable first. */
function steadyGroups(streams: readonly UsageStream[], catalog: Catalog): SteadyGroup[] {
  const groups = new Map<string, { sample: UsageStream; instances: number }>();
  for (const stream of streams) {
    if (mean(stream.usage) < 0.95 || catalog.pricedInstance(stream) === undefined) continue;
    const key = [
      stream.accountId,
      stream.region,
      stream.instanceType,
      stream.operatingSystem,
      stream.tenancy,
    ].join('|');
    const group = groups.get(key);
    if (group) group.instances += 1;
    else groups.set(key, { sample: stream, instances: 1 });
  }
  return [...groups.values()].sort(
    (a, b) => b.instances * b.sample.ondemandPrice - a.instances * a.sample.ondemandPrice,
  );
}

/** A provider reservation covering the stream: 1 or 3 years, paid upfront or monthly. */
function reservationFor(
  stream: UsageStream,
  offers: readonly Offer[],
  catalog: Catalog,
  random: SeededRandom,
): Offer | undefined {
  const family = catalog.pricedInstance(stream)?.family;
  const covering = offers.filter((offer) => {
    const { scope } = offer;
    if (scope.kind === 'spend' || scope.region !== stream.region) return false;
    if (scope.operatingSystem !== stream.operatingSystem || scope.tenancy !== stream.tenancy) return false;
    return scope.kind === 'family' ? scope.family === family : scope.instanceType === stream.instanceType;
  });
  if (covering.length === 0) return undefined;
  const term = random.chance(0.6) ? 'one_year' : 'three_year';
  const ofTerm = covering.filter((offer) => offer.term === term);
  return random.pick(ofTerm.length > 0 ? ofTerm : covering);
}

function mostCommonAccount(streams: readonly UsageStream[]): string {
  const counts = new Map<string, number>();
  for (const stream of streams) counts.set(stream.accountId, (counts.get(stream.accountId) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]?.[0] ?? '';
}

function mean(values: Float64Array): number {
  let sum = 0;
  for (const value of values) sum += value;
  return values.length > 0 ? sum / values.length : 0;
}

function roundCents(amount: number): number {
  return Math.round(amount * 100) / 100;
}
