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
import type { CoveredShares } from './coverage-pool';
import type { LineCoverage } from './line-coverage';
import type { Portfolio } from './portfolio';

/** Where a line covers a stream: the line's index, the stream's tier and position in its pool. */
interface Slot {
  readonly line: number;
  readonly tier: number;
  readonly position: number;
}

/**
 * Per stream: which of the lines covers it (-1: none), in which tier and at which pool position;
 * for a stream several layers cover, all of them, bottom first (`layered`).
 */
interface Slots {
  readonly line: Int32Array;
  readonly tier: Int32Array;
  readonly position: Int32Array;
  readonly layered: Map<number, Slot[]>;
}

/** `coverages` in application order (a stack's layers bottom first). */
function slotsOf(coverages: readonly LineCoverage[], streams: number): Slots {
  const slots = {
    line: new Int32Array(streams).fill(-1),
    tier: new Int32Array(streams),
    position: new Int32Array(streams),
    layered: new Map<number, Slot[]>(),
  };
  coverages.forEach((coverage, line) => {
    coverage.line.pool.tiers.forEach((tier, j) => {
      for (let m = 0; m < tier.members.length; m++) {
        const s = tier.members[m] as number;
        const slot = { line, tier: j, position: tier.offset + m };
        if (slots.line[s] === -1) {
          slots.line[s] = line;
          slots.tier[s] = j;
          slots.position[s] = slot.position;
          continue;
        }
        const all = slots.layered.get(s);
        if (all) all.push(slot);
        else
          slots.layered.set(s, [
            {
              line: slots.line[s] as number,
              tier: slots.tier[s] as number,
              position: slots.position[s] as number,
            },
            slot,
          ]);
      }
    });
  });
  return slots;
}

/** Every slot of stream s, bottom layer first. */
function slotList(slots: Slots, s: number): readonly Slot[] {
  const all = slots.layered.get(s);
  if (all) return all;
  const line = slots.line[s] as number;
  return line === -1 ? [] : [{ line, tier: slots.tier[s] as number, position: slots.position[s] as number }];
}

/** What one profile's tallies need: its new lines, and the shares its reservations cover (new or kept). */
export interface ProfileLines {
  readonly reservations: readonly LineCoverage[];
  readonly savingsPlans: readonly LineCoverage[];
  /** Per stream: the shares of its residual the profile's reservation layers cover, bottom first. */
  readonly covered: CoveredShares;
}

/** One profile's place in a pass: where its lines cover each stream, and their share arrays. */
interface ProfileSlots {
  readonly profile: ProfileLines;
  readonly reserved: Slots;
  readonly spent: Slots;
}

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
function tallyLayered(
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

const isLayered = (slot: ProfileSlots | null, s: number) =>
  slot !== null &&
  (slot.reserved.layered.has(s) || slot.spent.layered.has(s) || (slot.profile.covered[s]?.length ?? 0) > 1);

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
