/**
 * The tallies of the profiles' new lines (lineShares), over the whole window, in one pass over the
 * streams. For a stream with residual R[t] after existing commitments, covered by a reservation for
 * a share g[t] and then by a savings plan for a share s[t] of what is left:
 *   reservation:  before = sum_t R[t] (the residual's total),      covered = sum_t R[t] g[t]
 *   savings plan: before = sum_t (R[t] - R[t] g[t]),               covered = sum_t (R[t] - R[t] g[t]) s[t]
 * and a stack of several layers (layers.ts) is one chain with one link per layer, each covering its
 * share of what the ones below left (layered-tallies.ts). Per stream and profile with new lines, one
 * chain is summed over the stream's residual: the same sums, in the same order, as covering the lines
 * one after the other (which is what the resource-matches endpoint does), so both agree to the last
 * bit. A profile whose lines over a stream are all kept from an earlier profile sums nothing for it.
 */

import type { Portfolio } from '../portfolio/portfolio';
import { sumChain } from './layered-tallies';
import type { LineCoverage } from './line-coverage';
import { type ProfileLines, type ProfileSlots, slotsOf } from './line-slots';

/** Fills one profile's tallies of its new lines over stream s; `links` and `sums` are scratch space. */
function tallyStream(
  portfolio: Portfolio,
  { profile, reserved, spent }: ProfileSlots,
  s: number,
  links: Float64Array[],
  sums: Float64Array,
): Float64Array {
  const reservedFrom = reserved.start[s] as number;
  const reservedTo = reserved.start[s + 1] as number;
  const spentFrom = spent.start[s] as number;
  const spentTo = spent.start[s + 1] as number;
  if (reservedFrom === reservedTo && spentFrom === spentTo) return sums;
  // The reservations' layers, new or kept from an earlier profile, then the new savings plans'.
  let length = 0;
  const below = profile.covered[s];
  if (below) for (let k = 0; k < below.length; k++) links[length++] = below[k] as Float64Array;
  const reservedLinks = length;
  for (let i = spentFrom; i < spentTo; i++) {
    const coverage = profile.savingsPlans[spent.line[i] as number] as LineCoverage;
    links[length++] = coverage.shares[spent.tier[i] as number] as Float64Array;
  }
  const chainSums = sums.length < 2 * length ? new Float64Array(2 * length) : sums;
  sumChain(portfolio.residual[s] as Float64Array, portfolio.hours, links, length, chainSums);
  const total = portfolio.residualTotals[s] as number;
  // A chain's first link reads the whole residual: its before is the residual's total.
  for (let i = reservedFrom, k = 0; i < reservedTo; i++, k++) {
    const tally = (profile.reservations[reserved.line[i] as number] as LineCoverage).tally;
    const position = reserved.position[i] as number;
    tally.before[position] = k === 0 ? total : (chainSums[2 * k] as number);
    tally.covered[position] = chainSums[2 * k + 1] as number;
  }
  for (let i = spentFrom, k = reservedLinks; i < spentTo; i++, k++) {
    const tally = (profile.savingsPlans[spent.line[i] as number] as LineCoverage).tally;
    const position = spent.position[i] as number;
    tally.before[position] = k === 0 ? total : (chainSums[2 * k] as number);
    tally.covered[position] = chainSums[2 * k + 1] as number;
  }
  return chainSums;
}

/** Fills the tallies of every profile's new reservation and savings-plan lines. */
export function tallyLines(portfolio: Portfolio, profiles: readonly ProfileLines[]): void {
  const count = portfolio.residual.length;
  const slots = profiles.map((profile) => ({
    profile,
    reserved: slotsOf(profile.reservations, count),
    spent: slotsOf(profile.savingsPlans, count),
  }));
  const links: Float64Array[] = [];
  let sums: Float64Array = new Float64Array(8);
  for (let s = 0; s < count; s++) {
    for (let p = 0; p < slots.length; p++)
      sums = tallyStream(portfolio, slots[p] as ProfileSlots, s, links, sums);
  }
}
