/**
 * The coverage curve of a pool over the lookback: how much on-demand value q units cover on
 * average per hour, for any q, in O(J log H) after one sort per tier.
 *
 * With tiers j = 1..J of values v_1 > ... > v_J, residual amounts a_j[t] and cumulative amounts
 * S_j[t] = a_1[t] + ... + a_j[t], hour t's covered value with q units is
 *   C_t(q) = sum_j v_j * clamp(q - S_{j-1}[t], 0, a_j[t])
 *          = v_1 q - sum_j (v_j - v_{j+1}) max(0, q - S_j[t])          (v_{J+1} = 0),
 * so the mean over the H hours is
 *   Cov(q) = v_1 q - (1/H) sum_j (v_j - v_{j+1}) G_j(q),   G_j(q) = sum_t max(0, q - S_j[t]),
 * and G_j(q) = q n - (sum of the n smallest S_j), n = #{t : S_j[t] < q}, read from the sorted S_j.
 * With one tier of price p this is Cov(q) = p * mean_t min(R[t], q) (docs/plan-engine.md). Covered units:
 *   Units(q) = mean_t min(S_J[t], q) = q - G_J(q) / H.
 * Cov is concave (each C_t is: its slopes v_j decrease), so the value of one more unit never rises.
 */

export interface CoverageCurve {
  readonly hours: number;
  /** v_j, highest first. */
  readonly values: Float64Array;
  /** S_j sorted ascending, per tier. */
  readonly sortedCumulative: readonly Float64Array[];
  /** prefix[j][n] = sum of the n smallest S_j. */
  readonly prefix: readonly Float64Array[];
}

export function buildCurve(values: readonly number[], amounts: readonly Float64Array[]): CoverageCurve {
  const hours = amounts[0]?.length ?? 0;
  // One block per curve: for each tier, S_j sorted then its prefix sums.
  const block = new Float64Array(amounts.length * (2 * hours + 1));
  const cumulative = new Float64Array(hours);
  const sortedCumulative: Float64Array[] = [];
  const prefix: Float64Array[] = [];
  // Loops, not a callback: hour loops inside callbacks compiled to several times slower code.
  for (let j = 0; j < amounts.length; j++) {
    const amount = amounts[j] as Float64Array;
    for (let t = 0; t < hours; t++) cumulative[t] = (cumulative[t] as number) + (amount[t] as number);
    const at = j * (2 * hours + 1);
    const sorted = block.subarray(at, at + hours);
    sorted.set(cumulative);
    sortAscending(sorted);
    const sums = block.subarray(at + hours, at + 2 * hours + 1);
    for (let n = 0; n < hours; n++) sums[n + 1] = (sums[n] as number) + (sorted[n] as number);
    sortedCumulative.push(sorted);
    prefix.push(sums);
  }
  return { hours, values: Float64Array.from(values), sortedCumulative, prefix };
}

/**
 * In-place ascending sort: 3-way quicksort, insertion sort below 24 values. Hourly usage repeats a
 * few values (instance counts), which one 3-way partition settles at once; several times faster
 * here than the built-in typed-array sort.
 */
export function sortAscending(values: Float64Array, from = 0, to = values.length - 1): void {
  let low = from;
  let high = to;
  while (high - low >= 24) {
    const a = values[low] as number;
    const b = values[(low + high) >>> 1] as number;
    const c = values[high] as number;
    // Median of three.
    const pivot = Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
    let lt = low;
    let i = low;
    let gt = high;
    while (i <= gt) {
      const value = values[i] as number;
      if (value < pivot) {
        values[i] = values[lt] as number;
        values[lt++] = value;
        i++;
      } else if (value > pivot) {
        values[i] = values[gt] as number;
        values[gt--] = value;
      } else {
        i++;
      }
    }
    // Recurse into the smaller side and loop on the larger: the stack stays O(log n) deep.
    if (lt - low < high - gt) {
      sortAscending(values, low, lt - 1);
      low = gt + 1;
    } else {
      sortAscending(values, gt + 1, high);
      high = lt - 1;
    }
  }
  for (let i = low + 1; i <= high; i++) {
    const value = values[i] as number;
    let j = i - 1;
    while (j >= low && (values[j] as number) > value) {
      values[j + 1] = values[j] as number;
      j--;
    }
    values[j + 1] = value;
  }
}

/** #{t : sorted[t] < q} by binary search. */
function countBelow(sorted: Float64Array, q: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as number) < q) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** G_j(q) = sum_t max(0, q - S_j[t]). */
function shortfall(curve: CoverageCurve, tier: number, q: number): number {
  const sorted = curve.sortedCumulative[tier] as Float64Array;
  const n = countBelow(sorted, q);
  return q * n - ((curve.prefix[tier] as Float64Array)[n] ?? 0);
}

/** Cov(q): mean on-demand value per hour covered by q units. */
export function coveredValue(curve: CoverageCurve, q: number): number {
  if (curve.hours === 0 || q <= 0) return 0;
  const tiers = curve.values.length;
  let value = (curve.values[0] ?? 0) * q;
  for (let j = 0; j < tiers; j++) {
    const step = (curve.values[j] ?? 0) - (curve.values[j + 1] ?? 0);
    if (step !== 0) value -= (step * shortfall(curve, j, q)) / curve.hours;
  }
  return value;
}

/** Units(q): mean units per hour covered by q units. */
export function coveredUnits(curve: CoverageCurve, q: number): number {
  if (curve.hours === 0 || q <= 0) return 0;
  return q - shortfall(curve, curve.values.length - 1, q) / curve.hours;
}

/** max_t S_J[t]: the most units any hour can use. */
export function peakUnits(curve: CoverageCurve): number {
  const total = curve.sortedCumulative[curve.sortedCumulative.length - 1];
  return total && total.length > 0 ? (total[total.length - 1] ?? 0) : 0;
}

/** The values of two ascending arrays, ascending, written to `into`. */
function mergeAscending(a: Float64Array, b: Float64Array, into: Float64Array): Float64Array {
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x <= y) {
      into[k++] = x;
      i++;
    } else {
      into[k++] = y;
      j++;
    }
  }
  while (i < a.length) into[k++] = a[i++] as number;
  while (j < b.length) into[k++] = b[j++] as number;
  return into.subarray(0, k);
}

/** Every distinct positive S_j[t], ascending: the levels where Cov changes slope. */
export function breakpoints(curve: CoverageCurve): Float64Array {
  // The tiers' sorted S_j merged pairwise (log J rounds of merges, not one sort of them all).
  let runs: Float64Array[] = [...curve.sortedCumulative];
  if (runs.length === 0) return new Float64Array(0);
  let buffer = new Float64Array(curve.hours * runs.length);
  let spare = new Float64Array(buffer.length);
  while (runs.length > 1) {
    const merged: Float64Array[] = [];
    let at = 0;
    for (let r = 0; r < runs.length; r += 2) {
      const a = runs[r] as Float64Array;
      const b = runs[r + 1] ?? new Float64Array(0);
      const into = buffer.subarray(at, at + a.length + b.length);
      merged.push(mergeAscending(a, b, into));
      at += a.length + b.length;
    }
    runs = merged;
    [buffer, spare] = [spare, buffer];
  }
  const all = runs[0] as Float64Array;
  const levels = new Float64Array(all.length);
  let count = 0;
  for (let i = 0; i < all.length; i++) {
    const level = all[i] as number;
    if (level > 0 && (count === 0 || level !== levels[count - 1])) levels[count++] = level;
  }
  return levels.slice(0, count);
}
