/**
 * A renewal delays only what it renews (docs/plan-engine.md, Renewals). A reservation group's lines
 * cover what the owned commitments leave, the renewed ones (in force now, ending within the
 * horizon: plan-time.ts) included; bought whole at the earliest end, every unit of them would wait
 * for it, the units nothing renews on demand until then. So a group's stack is cut in parts: from
 * the bottom up, as much as each renewed reservation of the group held (its units, rounded up to
 * the group's step) starts at its end, earliest end first, and the rest starts when bought.
 *
 * The renewal parts are the bottom of the stack: they take the usage the renewed reservations used
 * (owned commitments apply before new lines), and the part bought now covers what is used above
 * it. The parts of one offer together cover exactly what the whole line covered: reservations of a
 * pool allocate a sum of quantities as one after the other.
 *
 * Where a renewed commitment covering the group is not a reservation held in the group's own units
 * (a savings plan, or a reservation spanning several groups) its units in the group are not known,
 * and the group's lines all start at the earliest end, as before the split (renewal-starts.ts).
 */

import type { PlannedLine } from '../curves/planned-line';
import type { CoveragePool } from '../groups/coverage-pool';
import { type GroupHolding, type GroupHoldings, groupHoldings } from './group-holdings';
import type { Portfolio } from './portfolio';

/** What the renewed commitments of `portfolio` held in each group pool asked about, earliest end first. */
export const renewedHoldings = (portfolio: Portfolio): GroupHoldings =>
  groupHoldings(portfolio, portfolio.renewed, (a, b) => a.endMs - b.endMs);

/** Below this a part is rounding, not units. */
const NEGLIGIBLE_UNITS = 1e-9;

/**
 * The stack of one group pool (`lines`, bottom first) cut at its renewals: each part a line of its
 * own with `startsAt` set, layers numbered again from 0. Unchanged when nothing renewed is known
 * to be held in the group (`holdings` empty or null).
 */
export function splitStack(
  lines: readonly PlannedLine[],
  holdings: readonly GroupHolding[] | null,
  step: number,
): readonly PlannedLine[] {
  if (!holdings || holdings.length === 0) return lines;
  const parts: PlannedLine[] = [];
  let holding = 0;
  let heldLeft = holdings[0] ? roundUp(holdings[0].units, step) : 0;
  for (const line of lines) {
    let left = line.quantity;
    while (left > NEGLIGIBLE_UNITS && holding < holdings.length) {
      const take = Math.min(left, heldLeft);
      if (take > NEGLIGIBLE_UNITS) {
        const startsAt = new Date((holdings[holding] as GroupHolding).endMs).toISOString();
        const last = parts[parts.length - 1];
        // Two holdings ending at once are one part.
        if (last && last.offer === line.offer && last.startsAt === startsAt)
          parts[parts.length - 1] = { ...last, quantity: last.quantity + take };
        else
          parts.push({
            offer: line.offer,
            sharingKey: line.sharingKey,
            pool: line.pool,
            quantity: take,
            layer: 0,
            startsAt,
          });
        left -= take;
        heldLeft -= take;
      }
      if (heldLeft <= NEGLIGIBLE_UNITS) {
        holding++;
        heldLeft = holding < holdings.length ? roundUp((holdings[holding] as GroupHolding).units, step) : 0;
      }
    }
    if (left > NEGLIGIBLE_UNITS)
      parts.push({
        offer: line.offer,
        sharingKey: line.sharingKey,
        pool: line.pool,
        quantity: left,
        layer: 0,
        startsAt: null,
      });
  }
  // The bottom keeps the amounts it was chosen on (the pool's residual); the parts above derive
  // theirs from the ones below, as the resource-matches endpoint does.
  const bottomAmounts = lines[0]?.amounts;
  return parts.map((part, layer) => ({
    ...part,
    layer,
    ...(layer === 0 && bottomAmounts ? { amounts: bottomAmounts } : {}),
  }));
}

/** `units` rounded up to a multiple of the group's step (a quantity its sizes can buy). */
function roundUp(units: number, step: number): number {
  return step > 0 ? Math.ceil(units / step - NEGLIGIBLE_UNITS) * step : units;
}

/** A profile's reservation lines with every group's stack cut at its renewals (splitStack). */
export function splitRenewals(
  lines: readonly PlannedLine[],
  holdingsOf: GroupHoldings,
  stepOf: (pool: CoveragePool) => number,
): PlannedLine[] {
  const stacks = new Map<CoveragePool, PlannedLine[]>();
  for (const line of lines) {
    const stack = stacks.get(line.pool);
    if (stack) stack.push(line);
    else stacks.set(line.pool, [line]);
  }
  const out: PlannedLine[] = [];
  for (const [pool, stack] of stacks) {
    stack.sort((a, b) => a.layer - b.layer);
    out.push(...splitStack(stack, holdingsOf(pool), stepOf(pool)));
  }
  return out;
}
