/**
 * The tallies of the profiles' new lines (lineShares), over the whole window, in one pass over the
 * streams for up to three profiles at once. For a stream with residual R[t] after existing
 * commitments, covered by a reservation for a share g[t] and then by a savings plan for a share
 * s[t] of what is left:
 *   reservation:  before = sum_t R[t] (the residual's total),      covered = sum_t R[t] g[t]
 *   savings plan: before = sum_t (R[t] - R[t] g[t]),               covered = sum_t (R[t] - R[t] g[t]) s[t]
 * One loop reads R once for all of them: the same sums, in the same order, as covering the lines one
 * after the other (which is what the resource-matches endpoint does), so both agree to the last bit.
 * A profile whose stream has no reservation (or no savings plan) reads zeros for it: R[t] x 0 = 0 and
 * R[t] - 0 = R[t] exactly, so its sums are still those of the lines it has. A stream a stack of
 * several layers covers (layers.ts) is summed by the same chain with one link per layer, each layer
 * covering its share of what the ones below left.
 */

import type { Portfolio } from '../portfolio/portfolio';
import { isLayered, tallyLayered } from './layered-tallies';
import type { LineCoverage } from './line-coverage';
import { type ProfileLines, type ProfileSlots, slotsOf } from './line-slots';

/**
 * Sums of one stream's residual for three profiles at once (first: the reservation's shares, second:
 * the savings plan's), written to `sums`: per profile p, at 3p, reservation covered, left, spent.
 * Nine independent chains of additions, each in hour order.
 */
function sumThree(
  sums: Float64Array,
  hours: number,
  usage: Float64Array,
  first0: Float64Array,
  second0: Float64Array,
  first1: Float64Array,
  second1: Float64Array,
  first2: Float64Array,
  second2: Float64Array,
): void {
  let covered0 = 0;
  let left0 = 0;
  let spent0 = 0;
  let covered1 = 0;
  let left1 = 0;
  let spent1 = 0;
  let covered2 = 0;
  let left2 = 0;
  let spent2 = 0;
  for (let t = 0; t < hours; t++) {
    const units = usage[t] as number;
    // An idle hour adds exact zeros to every sum (a third of all hours in generated fleets).
    if (units === 0) continue;
    const cover0 = units * (first0[t] as number);
    covered0 += cover0;
    const rest0 = units - cover0;
    left0 += rest0;
    spent0 += rest0 * (second0[t] as number);
    const cover1 = units * (first1[t] as number);
    covered1 += cover1;
    const rest1 = units - cover1;
    left1 += rest1;
    spent1 += rest1 * (second1[t] as number);
    const cover2 = units * (first2[t] as number);
    covered2 += cover2;
    const rest2 = units - cover2;
    left2 += rest2;
    spent2 += rest2 * (second2[t] as number);
  }
  sums[0] = covered0;
  sums[1] = left0;
  sums[2] = spent0;
  sums[3] = covered1;
  sums[4] = left1;
  sums[5] = spent1;
  sums[6] = covered2;
  sums[7] = left2;
  sums[8] = spent2;
}

/** Tallies up to three profiles (`slots`, padded with nulls) in one pass over the streams. */
function tallyThree(
  portfolio: Portfolio,
  slots: readonly (ProfileSlots | null)[],
  zeros: Float64Array,
): void {
  const { residual, residualTotals, hours } = portfolio;
  const sums = new Float64Array(9);
  const chainSums = new Float64Array(18);
  // Per profile, for the stream at hand: its new lines (if any) and the shares they read.
  const reservations: (LineCoverage | undefined)[] = [undefined, undefined, undefined];
  const spends: (LineCoverage | undefined)[] = [undefined, undefined, undefined];
  const first: Float64Array[] = [zeros, zeros, zeros];
  const second: Float64Array[] = [zeros, zeros, zeros];
  for (let s = 0; s < residual.length; s++) {
    if (isLayered(slots[0] ?? null, s) || isLayered(slots[1] ?? null, s) || isLayered(slots[2] ?? null, s)) {
      tallyLayered(portfolio, slots, s, zeros, chainSums);
      continue;
    }
    let any = false;
    for (let p = 0; p < 3; p++) {
      const slot = slots[p];
      const reservation = slot?.profile.reservations[slot.reserved.line[s] as number];
      const spend = slot?.profile.savingsPlans[slot.spent.line[s] as number];
      reservations[p] = reservation;
      spends[p] = spend;
      any ||= reservation !== undefined || spend !== undefined;
      // A new reservation's share, else the share of one kept from an earlier profile, else none.
      first[p] =
        (reservation
          ? reservation.shares[slot?.reserved.tier[s] as number]
          : slot?.profile.covered[s]?.[0]) ?? zeros;
      second[p] = spend ? (spend.shares[slot?.spent.tier[s] as number] as Float64Array) : zeros;
    }
    if (!any) continue;
    sumThree(
      sums,
      hours,
      residual[s] as Float64Array,
      first[0] as Float64Array,
      second[0] as Float64Array,
      first[1] as Float64Array,
      second[1] as Float64Array,
      first[2] as Float64Array,
      second[2] as Float64Array,
    );
    for (let p = 0; p < 3; p++) {
      const slot = slots[p] as ProfileSlots | null;
      const reservation = reservations[p];
      if (slot && reservation) {
        const position = slot.reserved.position[s] as number;
        reservation.tally.before[position] = residualTotals[s] as number;
        reservation.tally.covered[position] = sums[3 * p] as number;
      }
      const spend = spends[p];
      if (slot && spend) {
        const position = slot.spent.position[s] as number;
        // Without a reservation nothing was taken before the savings plan: left = the residual.
        spend.tally.before[position] =
          first[p] === zeros ? (residualTotals[s] as number) : (sums[3 * p + 1] as number);
        spend.tally.covered[position] = sums[3 * p + 2] as number;
      }
    }
  }
}

/** Fills the tallies of every profile's new reservation and savings-plan lines. */
export function tallyLines(portfolio: Portfolio, profiles: readonly ProfileLines[]): void {
  const count = portfolio.residual.length;
  const zeros = new Float64Array(portfolio.hours);
  const slots = profiles.map((profile) => ({
    profile,
    reserved: slotsOf(profile.reservations, count),
    spent: slotsOf(profile.savingsPlans, count),
  }));
  for (let p = 0; p < slots.length; p += 3) {
    tallyThree(portfolio, [slots[p] ?? null, slots[p + 1] ?? null, slots[p + 2] ?? null], zeros);
  }
}
