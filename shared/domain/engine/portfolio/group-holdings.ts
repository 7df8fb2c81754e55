/**
 * What some owned commitments hold in a reservation group, in the group's units: the renewed ones
 * a renewal replaces (renewal-split.ts), the ones starting after the renewal horizon that a new
 * line meets during its term (commitments-ahead.ts). A reservation whose pool lies within the
 * group's holds its booked quantity there (instances x units per instance). Any other commitment
 * sharing a stream with the group (a savings plan, a reservation spanning several groups) holds
 * units the group cannot count: the group's holdings are then not known (null).
 */
import type { CoveragePool } from '../groups/coverage-pool';
import type { CommitmentPool } from './commitment-book';
import type { Portfolio } from './portfolio';

export interface GroupHolding {
  readonly startMs: number;
  readonly endMs: number;
  /** Group units held. */
  readonly units: number;
}

/** Per group pool: the holdings in it; null when not known. */
export type GroupHoldings = (pool: CoveragePool) => readonly GroupHolding[] | null;

function isSubset(members: ArrayLike<number>, of: ReadonlySet<number>): boolean {
  for (let k = 0; k < members.length; k++) if (!of.has(members[k] as number)) return false;
  return true;
}

/** Per group pool asked about, the holdings of `commitments` (book indices) in it, sorted by `order`. */
export function groupHoldings(
  portfolio: Portfolio,
  commitments: readonly number[],
  order: (a: GroupHolding, b: GroupHolding) => number,
): GroupHoldings {
  const chosen = new Set(commitments);
  // Per stream, the book pools of the chosen commitments covering it.
  const poolsOf = new Map<number, Set<CommitmentPool>>();
  if (chosen.size > 0) {
    for (const entry of portfolio.book.pools) {
      if (!entry.commitments.some((c) => chosen.has(c))) continue;
      for (const s of entry.pool.members) {
        const pools = poolsOf.get(s) ?? new Set();
        pools.add(entry);
        poolsOf.set(s, pools);
      }
    }
  }
  const known = new Map<CoveragePool, readonly GroupHolding[] | null>();
  return (pool) => {
    const cached = known.get(pool);
    if (cached !== undefined) return cached;
    const entries = new Set<CommitmentPool>();
    for (const s of pool.members) for (const entry of poolsOf.get(s) ?? []) entries.add(entry);
    let holdings: GroupHolding[] | null = [];
    const members = new Set(pool.members);
    for (const entry of entries) {
      for (const c of entry.commitments) {
        if (!chosen.has(c)) continue;
        const booked = portfolio.book.commitments[c];
        if (!booked || booked.commitment.instanceType === null || !isSubset(entry.pool.members, members)) {
          holdings = null;
          break;
        }
        holdings.push({ startMs: booked.startMs, endMs: booked.endMs, units: booked.quantity });
      }
      if (holdings === null) break;
    }
    const sorted = holdings === null ? null : holdings.sort(order);
    known.set(pool, sorted);
    return sorted;
  };
}
