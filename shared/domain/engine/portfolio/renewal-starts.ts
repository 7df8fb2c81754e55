/**
 * When a plan's lines start (docs/plan-engine.md, Renewals). A commitment the plan renews (in force
 * at the plan's time, ending within the renewal horizon: plan-time.ts) does not count, so the plan
 * covers the usage it leaves; a line covering any of that usage replaces it and is a renewal, bought
 * to start when the commitment it replaces ends rather than now (buying now would pay twice for the
 * days both run). A line overlapping several such commitments starts at the earliest end: from then
 * on part of its usage is uncovered.
 */
import type { CoveragePool } from '../groups/coverage-pool';
import type { Portfolio } from './portfolio';

/** Per stream: the earliest end (epoch ms) of a renewed commitment covering it; Infinity when none. */
export type RenewalEnds = Float64Array;

export function renewalEnds(portfolio: Portfolio): RenewalEnds {
  const ends = new Float64Array(portfolio.streams.length).fill(Number.POSITIVE_INFINITY);
  if (portfolio.renewed.length === 0) return ends;
  const renewed = new Set(portfolio.renewed);
  for (const { pool, commitments } of portfolio.book.pools) {
    for (const c of commitments) {
      if (!renewed.has(c)) continue;
      const endMs = portfolio.book.commitments[c]?.endMs ?? Number.POSITIVE_INFINITY;
      for (let position = 0; position < pool.members.length; position++) {
        const s = pool.members[position] as number;
        if (endMs < (ends[s] as number)) ends[s] = endMs;
      }
    }
  }
  return ends;
}

/** A line's start as an ISO time: the earliest renewal end over its pool's members; null: now. */
export function lineStart(ends: RenewalEnds, pool: CoveragePool): string | null {
  let earliest = Number.POSITIVE_INFINITY;
  for (let position = 0; position < pool.members.length; position++) {
    const endMs = ends[pool.members[position] as number] as number;
    if (endMs < earliest) earliest = endMs;
  }
  return Number.isFinite(earliest) ? new Date(earliest).toISOString() : null;
}
