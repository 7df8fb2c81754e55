/**
 * The tallies of a stream a stack of several layers covers (layers.ts): one chain with one link per
 * layer, each covering its share of what the ones below left, summed in hour order as covering the
 * lines one after the other does (line-tallies.ts), so plan and resource matches agree to the last bit.
 */

import type { Portfolio } from '../portfolio/portfolio';
import type { LineCoverage } from './line-coverage';
import { type ProfileLines, type ProfileSlots, type Slot, slotList } from './line-slots';

/**
 * The chain of a stream several layers cover, for one profile: per link k (the reservations'
 * layers, then the savings plans'), the usage before it and what it covered, summed in hour order.
 */
function sumLayers(
  usage: Float64Array,
  hours: number,
  shares: readonly Float64Array[],
  before: Float64Array,
  covered: Float64Array,
): void {
  before.fill(0);
  covered.fill(0);
  for (let t = 0; t < hours; t++) {
    let rest = usage[t] as number;
    if (rest === 0) continue;
    for (let k = 0; k < shares.length; k++) {
      const cover = rest * ((shares[k] as Float64Array)[t] as number);
      before[k] = (before[k] as number) + rest;
      covered[k] = (covered[k] as number) + cover;
      rest = rest - cover;
    }
  }
}

/**
 * sumLayers for three profiles at once, each a chain of at most three links (`shares`: three per
 * profile, padded at the end with zeros, whose sums are not read), in one pass and in locals: the
 * usual layered stream (a reservation under two savings-plan layers, or two savings-plan layers)
 * at the cost of the nine-chain pass. `sums`: per profile p and link k, before at 6p + 2k and
 * covered at 6p + 2k + 1.
 */
function sumThreeChains(
  sums: Float64Array,
  usage: Float64Array,
  hours: number,
  shares: readonly Float64Array[],
): void {
  const [a0, b0, c0, a1, b1, c1, a2, b2, c2] = shares as [
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
    Float64Array,
  ];
  let beforeA0 = 0;
  let coveredA0 = 0;
  let beforeB0 = 0;
  let coveredB0 = 0;
  let beforeC0 = 0;
  let coveredC0 = 0;
  let beforeA1 = 0;
  let coveredA1 = 0;
  let beforeB1 = 0;
  let coveredB1 = 0;
  let beforeC1 = 0;
  let coveredC1 = 0;
  let beforeA2 = 0;
  let coveredA2 = 0;
  let beforeB2 = 0;
  let coveredB2 = 0;
  let beforeC2 = 0;
  let coveredC2 = 0;
  for (let t = 0; t < hours; t++) {
    const units = usage[t] as number;
    if (units === 0) continue;
    let cover = units * (a0[t] as number);
    beforeA0 += units;
    coveredA0 += cover;
    let rest = units - cover;
    cover = rest * (b0[t] as number);
    beforeB0 += rest;
    coveredB0 += cover;
    rest = rest - cover;
    beforeC0 += rest;
    coveredC0 += rest * (c0[t] as number);
    cover = units * (a1[t] as number);
    beforeA1 += units;
    coveredA1 += cover;
    rest = units - cover;
    cover = rest * (b1[t] as number);
    beforeB1 += rest;
    coveredB1 += cover;
    rest = rest - cover;
    beforeC1 += rest;
    coveredC1 += rest * (c1[t] as number);
    cover = units * (a2[t] as number);
    beforeA2 += units;
    coveredA2 += cover;
    rest = units - cover;
    cover = rest * (b2[t] as number);
    beforeB2 += rest;
    coveredB2 += cover;
    rest = rest - cover;
    beforeC2 += rest;
    coveredC2 += rest * (c2[t] as number);
  }
  sums.set([
    beforeA0,
    coveredA0,
    beforeB0,
    coveredB0,
    beforeC0,
    coveredC0,
    beforeA1,
    coveredA1,
    beforeB1,
    coveredB1,
    beforeC1,
    coveredC1,
    beforeA2,
    coveredA2,
    beforeB2,
    coveredB2,
    beforeC2,
    coveredC2,
  ]);
}

/** One profile's chain over stream s: its links' shares and where their tallies go. */
interface Chain {
  readonly shares: Float64Array[];
  readonly reservations: readonly Slot[];
  readonly spends: readonly Slot[];
  readonly reservedLinks: number;
}

function chainOf(slot: ProfileSlots | null, s: number): Chain | null {
  if (!slot) return null;
  const { profile } = slot;
  const reservations = slotList(slot.reserved, s);
  const spends = slotList(slot.spent, s);
  if (reservations.length === 0 && spends.length === 0) return null;
  // The reservations' layers, new or kept from an earlier profile, then the new savings plans'.
  const reserved = profile.covered[s] ?? [];
  const shares = [...reserved];
  for (const { line, tier } of spends) {
    shares.push((profile.savingsPlans[line] as LineCoverage).shares[tier] as Float64Array);
  }
  return { shares, reservations, spends, reservedLinks: reserved.length };
}

/** Writes one profile's chain sums (per link: before, covered) to its new lines' tallies. */
function fillChain(
  portfolio: Portfolio,
  profile: ProfileLines,
  chain: Chain,
  s: number,
  before: (k: number) => number,
  covered: (k: number) => number,
): void {
  const total = portfolio.residualTotals[s] as number;
  chain.reservations.forEach(({ line, position }, k) => {
    const tally = (profile.reservations[line] as LineCoverage).tally;
    tally.before[position] = k === 0 ? total : before(k);
    tally.covered[position] = covered(k);
  });
  chain.spends.forEach(({ line, position }, k) => {
    const tally = (profile.savingsPlans[line] as LineCoverage).tally;
    const link = chain.reservedLinks + k;
    // Without a reservation nothing was taken before the savings plan: left = the residual.
    tally.before[position] = link === 0 ? total : before(link);
    tally.covered[position] = covered(link);
  });
}

/** Fills the tallies of up to three profiles' new lines over stream s, a stack of layers covering it somewhere. */
export function tallyLayered(
  portfolio: Portfolio,
  slots: readonly (ProfileSlots | null)[],
  s: number,
  zeros: Float64Array,
  sums: Float64Array,
): void {
  const chains = slots.map((slot) => chainOf(slot, s));
  const usage = portfolio.residual[s] as Float64Array;
  if (chains.every((chain) => (chain?.shares.length ?? 0) <= 3)) {
    const padded: Float64Array[] = [];
    for (const chain of chains) for (let k = 0; k < 3; k++) padded.push(chain?.shares[k] ?? zeros);
    sumThreeChains(sums, usage, portfolio.hours, padded);
    chains.forEach((chain, p) => {
      if (!chain) return;
      const slot = slots[p] as ProfileSlots;
      fillChain(
        portfolio,
        slot.profile,
        chain,
        s,
        (k) => sums[6 * p + 2 * k] as number,
        (k) => sums[6 * p + 2 * k + 1] as number,
      );
    });
    return;
  }
  chains.forEach((chain, p) => {
    if (!chain) return;
    const before = new Float64Array(chain.shares.length);
    const covered = new Float64Array(chain.shares.length);
    sumLayers(usage, portfolio.hours, chain.shares, before, covered);
    fillChain(
      portfolio,
      (slots[p] as ProfileSlots).profile,
      chain,
      s,
      (k) => before[k] as number,
      (k) => covered[k] as number,
    );
  });
}

export const isLayered = (slot: ProfileSlots | null, s: number) =>
  slot !== null &&
  (slot.reserved.layered.has(s) || slot.spent.layered.has(s) || (slot.profile.covered[s]?.length ?? 0) > 1);
