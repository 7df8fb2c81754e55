/**
 * Break-even (docs/plan-engine.md, Figures): the usage hours after which the savings achieved
 * exceed what is still owed for the commitment, i.e. after which walking away leaves the org
 * ahead. After h hours of usage covered as over the lookback, a line (kept h hours, at most its
 * term T) has
 *   avoided on-demand spend net of the fee:  (covered - fee) * min(h, T)
 *   paid or still owed:                      upfront + recurring * max(min(h, T), L)
 * (recurring is owed until the lock-in L ends even if given back earlier). Its position is the
 * difference; several lines (a plan) add theirs. Break-even is the least h >= 0 where the position
 * is >= 0. With L = T (provider offers) and no fee it is total_cost / covered_ondemand_cost; a
 * no-upfront 30-day lease that saves money breaks even within its 720 hours of lock-in.
 */

/** What decides when a line breaks even; money per hour unless named a total. */
export interface BreakevenTerms {
  readonly coveredOndemand: number;
  readonly fee: number;
  /** Total upfront payment. */
  readonly upfront: number;
  readonly recurring: number;
  readonly lockinHours: number;
  readonly termHours: number;
}

/** The lines' net position if walked away from after `hours` hours of covered usage. */
function position(lines: readonly BreakevenTerms[], hours: number): number {
  let total = 0;
  for (const line of lines) {
    const kept = Math.min(hours, line.termHours);
    total +=
      (line.coveredOndemand - line.fee) * kept -
      line.upfront -
      line.recurring * Math.max(kept, line.lockinHours);
  }
  return total;
}

/**
 * The least number of hours after which the lines together have broken even; 0 when they never
 * do within their terms (nothing covered, or losing money), so that every figure stays finite.
 * The position is linear between lock-in and term ends, so the crossing is found segment by segment.
 */
export function breakevenHours(lines: readonly BreakevenTerms[]): number {
  const ends = new Set<number>();
  for (const line of lines) {
    ends.add(line.lockinHours);
    ends.add(line.termHours);
  }
  const cuts = [...ends].filter((hours) => hours > 0).sort((a, b) => a - b);
  let from = 0;
  let before = position(lines, 0);
  if (before >= 0) return 0;
  for (const to of cuts) {
    const after = position(lines, to);
    if (after >= 0) return from + (-before * (to - from)) / (after - before);
    from = to;
    before = after;
  }
  return 0;
}
