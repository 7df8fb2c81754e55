/**
 * Layers (docs/plan-engine.md, Layers): once a pool's chosen offer takes its quantity, the pool's
 * offers are considered again on what it leaves, and so on while one is still worth buying. Each
 * layer covers, hour by hour and tier by tier, a share of what the layers below it left: for a
 * tier holding `a` units before a layer covering a share `s`, `a - a s` is left. Plans and the
 * resource-matches endpoint both derive every layer's amounts with the functions here, from the same
 * amounts and shares, so a layer covers the same in both to the last bit.
 */
import type { CoveragePool } from '../groups/coverage-pool';

/** Per tier, per hour: what a layer covering `shares` of `amounts` leaves (a - a s). */
export function leftoverAmounts(
  amounts: readonly Float64Array[],
  shares: readonly Float64Array[],
): Float64Array[] {
  return amounts.map((amount, j) => {
    const share = shares[j] as Float64Array;
    const left = new Float64Array(amount.length);
    for (let t = 0; t < amount.length; t++) {
      const units = amount[t] as number;
      left[t] = units - units * (share[t] as number);
    }
    return left;
  });
}

/** `amounts` less what each of `below` (per layer, per tier, per hour: its share) covered, layer after layer. */
export function amountsAbove(
  amounts: readonly Float64Array[],
  below: readonly (readonly Float64Array[])[],
): readonly Float64Array[] {
  let left = amounts;
  for (const shares of below) left = leftoverAmounts(left, shares);
  return left;
}

/**
 * Whether a layer of pool `b` can stack on one of pool `a`: the same streams in the same tiers, in
 * the same order. A share of a tier of `a` is then the same share of the same tier of `b` (savings
 * plans of two rate tables whose discounts order the usage alike); a reservation group's offers
 * all share its pool.
 */
export function samePoolTiers(a: CoveragePool, b: CoveragePool): boolean {
  if (a === b) return true;
  if (a.tiers.length !== b.tiers.length || a.members.length !== b.members.length) return false;
  for (let j = 0; j < a.tiers.length; j++) {
    if (a.tiers[j]?.members.length !== b.tiers[j]?.members.length) return false;
  }
  for (let m = 0; m < a.members.length; m++) if (a.members[m] !== b.members[m]) return false;
  return true;
}
