/**
 * The tallies of a profile's new lines (lineShares), over the whole window, in one pass over the
 * streams. For a stream with residual R[t] after existing commitments, covered by a reservation for
 * a share g[t] and then by a savings plan for a share s[t] of what is left:
 *   reservation:  before = sum_t R[t] (the residual's total),      covered = sum_t R[t] g[t]
 *   savings plan: before = sum_t (R[t] - R[t] g[t]),               covered = sum_t (R[t] - R[t] g[t]) s[t]
 * One loop reads R once for all of them: the same sums, in the same order, as covering the lines one
 * after the other (which is what the resource-matches endpoint does), so both agree to the last bit.
 */
import type { CoveredShares } from './coverage-pool';
import type { LineCoverage } from './line-coverage';
import type { Portfolio } from './portfolio';

/** Per stream: which of the lines covers it (-1: none), in which tier and at which pool position. */
interface Slots {
  readonly line: Int32Array;
  readonly tier: Int32Array;
  readonly position: Int32Array;
}

function slotsOf(coverages: readonly LineCoverage[], streams: number): Slots {
  const slots = {
    line: new Int32Array(streams).fill(-1),
    tier: new Int32Array(streams),
    position: new Int32Array(streams),
  };
  coverages.forEach((coverage, line) => {
    coverage.line.pool.tiers.forEach((tier, j) => {
      for (let m = 0; m < tier.members.length; m++) {
        const s = tier.members[m] as number;
        slots.line[s] = line;
        slots.tier[s] = j;
        slots.position[s] = tier.offset + m;
      }
    });
  });
  return slots;
}

/** Sums of one stream: what its reservation covered, what was left before the savings plan, what that covered. */
const sums = new Float64Array(6);

/** What covers a stream: a reservation then a savings plan, a reservation only, a savings plan only. */
const BOTH = 0;
const RESERVATION = 1;
const SAVINGS_PLAN = 2;

/**
 * The sums of two streams of one kind at once (sums[0..2] and sums[3..5]): each stream's sums keep
 * their order, and the two independent chains of additions overlap instead of waiting on each other.
 * `first`: the reservation's shares (unused for SAVINGS_PLAN); `second`: the savings plan's (unused
 * for RESERVATION).
 */
function sumPair(
  kind: number,
  hours: number,
  usageA: Float64Array,
  firstA: Float64Array,
  secondA: Float64Array,
  usageB: Float64Array,
  firstB: Float64Array,
  secondB: Float64Array,
): void {
  let coveredA = 0;
  let leftA = 0;
  let spentA = 0;
  let coveredB = 0;
  let leftB = 0;
  let spentB = 0;
  if (kind === BOTH) {
    for (let t = 0; t < hours; t++) {
      const unitsA = usageA[t] as number;
      const coverA = unitsA * (firstA[t] as number);
      coveredA += coverA;
      const restA = unitsA - coverA;
      leftA += restA;
      spentA += restA * (secondA[t] as number);
      const unitsB = usageB[t] as number;
      const coverB = unitsB * (firstB[t] as number);
      coveredB += coverB;
      const restB = unitsB - coverB;
      leftB += restB;
      spentB += restB * (secondB[t] as number);
    }
  } else if (kind === RESERVATION) {
    for (let t = 0; t < hours; t++) {
      coveredA += (usageA[t] as number) * (firstA[t] as number);
      coveredB += (usageB[t] as number) * (firstB[t] as number);
    }
  } else {
    for (let t = 0; t < hours; t++) {
      spentA += (usageA[t] as number) * (secondA[t] as number);
      spentB += (usageB[t] as number) * (secondB[t] as number);
    }
  }
  sums[0] = coveredA;
  sums[1] = leftA;
  sums[2] = spentA;
  sums[3] = coveredB;
  sums[4] = leftB;
  sums[5] = spentB;
}

/** The sums of one stream of `kind`, in sums[0..2]. */
function sumOne(
  kind: number,
  hours: number,
  usage: Float64Array,
  first: Float64Array,
  second: Float64Array,
): void {
  let covered = 0;
  let left = 0;
  let spent = 0;
  if (kind === BOTH) {
    for (let t = 0; t < hours; t++) {
      const units = usage[t] as number;
      const cover = units * (first[t] as number);
      covered += cover;
      const rest = units - cover;
      left += rest;
      spent += rest * (second[t] as number);
    }
  } else if (kind === RESERVATION) {
    for (let t = 0; t < hours; t++) covered += (usage[t] as number) * (first[t] as number);
  } else {
    for (let t = 0; t < hours; t++) spent += (usage[t] as number) * (second[t] as number);
  }
  sums[0] = covered;
  sums[1] = left;
  sums[2] = spent;
}

/**
 * Fills the tallies of new reservation lines and new savings-plan lines. `covered`: per stream,
 * the share of its residual the profile's reservations cover (new lines or kept ones).
 */
export function tallyLines(
  portfolio: Portfolio,
  reservations: readonly LineCoverage[],
  savingsPlans: readonly LineCoverage[],
  covered: CoveredShares,
): void {
  const { residual, residualTotals, hours } = portfolio;
  const reserved = slotsOf(reservations, residual.length);
  const spent = slotsOf(savingsPlans, residual.length);
  const none = new Float64Array(0);
  const firstOf = (s: number): Float64Array | undefined => {
    const reservation = reservations[reserved.line[s] as number];
    return reservation ? (reservation.shares[reserved.tier[s] as number] as Float64Array) : covered[s];
  };
  const secondOf = (s: number): Float64Array =>
    savingsPlans[spent.line[s] as number]?.shares[spent.tier[s] as number] ?? none;
  /** Writes the sums at `at` (0 or 3) of stream s, of `kind`, to its tallies. */
  const record = (kind: number, s: number, at: number) => {
    const reservation = reservations[reserved.line[s] as number];
    if (reservation) {
      const position = reserved.position[s] as number;
      reservation.tally.before[position] = residualTotals[s] as number;
      reservation.tally.covered[position] = sums[at] as number;
    }
    const spend = savingsPlans[spent.line[s] as number];
    if (spend) {
      const position = spent.position[s] as number;
      // Without a reservation nothing was taken before the savings plan: left = the residual.
      spend.tally.before[position] = kind === BOTH ? (sums[at + 1] as number) : (residualTotals[s] as number);
      spend.tally.covered[position] = sums[at + 2] as number;
    }
  };
  // Streams to tally, by kind, so that pairs of one kind share a loop.
  const kinds: number[][] = [[], [], []];
  for (let s = 0; s < residual.length; s++) {
    const fresh = (reserved.line[s] as number) >= 0;
    const spend = (spent.line[s] as number) >= 0;
    if (!fresh && !spend) continue;
    const first = firstOf(s) !== undefined;
    (kinds[first && spend ? BOTH : first ? RESERVATION : SAVINGS_PLAN] as number[]).push(s);
  }
  kinds.forEach((streams, kind) => {
    let k = 0;
    for (; k + 1 < streams.length; k += 2) {
      const a = streams[k] as number;
      const b = streams[k + 1] as number;
      const usageA = residual[a] as Float64Array;
      const usageB = residual[b] as Float64Array;
      sumPair(kind, hours, usageA, firstOf(a) ?? none, secondOf(a), usageB, firstOf(b) ?? none, secondOf(b));
      record(kind, a, 0);
      record(kind, b, 3);
    }
    if (k < streams.length) {
      const s = streams[k] as number;
      sumOne(kind, hours, residual[s] as Float64Array, firstOf(s) ?? none, secondOf(s));
      record(kind, s, 0);
    }
  });
}
