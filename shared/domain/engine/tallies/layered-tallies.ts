/**
 * The sums of one chain over one stream (line-tallies.ts): the stream's residual R[t] covered by
 * links 0, 1, ... (a profile's reservation layers, then its savings-plan layers, layers.ts), each
 * covering the share `links[k][t]` of what the links below left. Per link k: `before` = sum_t of
 * what reached it, `covered` = sum_t of what it took, each in hour order as covering the lines one
 * after the other adds them (coverage-pool.ts applyShares), so plan and resource matches agree to
 * the last bit. Written out for chains of one, two and three links, which is nearly every stream
 * (a reservation or a savings plan, either under a second layer), so that the sums stay in
 * registers; longer chains take the general loop.
 */

/**
 * Writes, per link k < `length`, before to sums[2k] and covered to sums[2k + 1]. An idle hour adds
 * exact zeros to every sum and is skipped.
 */
export function sumChain(
  usage: Float64Array,
  hours: number,
  links: readonly Float64Array[],
  length: number,
  sums: Float64Array,
): void {
  if (length === 1) sumOne(usage, hours, links[0] as Float64Array, sums);
  else if (length === 2) sumTwo(usage, hours, links[0] as Float64Array, links[1] as Float64Array, sums);
  else if (length === 3)
    sumThree(
      usage,
      hours,
      links[0] as Float64Array,
      links[1] as Float64Array,
      links[2] as Float64Array,
      sums,
    );
  else if (length === 4) sumFour(usage, hours, links, sums);
  else sumMany(usage, hours, links, length, sums);
}

function sumOne(usage: Float64Array, hours: number, a: Float64Array, sums: Float64Array): void {
  let beforeA = 0;
  let coveredA = 0;
  for (let t = 0; t < hours; t++) {
    const units = usage[t] as number;
    if (units === 0) continue;
    beforeA += units;
    coveredA += units * (a[t] as number);
  }
  sums[0] = beforeA;
  sums[1] = coveredA;
}

function sumTwo(
  usage: Float64Array,
  hours: number,
  a: Float64Array,
  b: Float64Array,
  sums: Float64Array,
): void {
  let beforeA = 0;
  let coveredA = 0;
  let beforeB = 0;
  let coveredB = 0;
  for (let t = 0; t < hours; t++) {
    const units = usage[t] as number;
    if (units === 0) continue;
    const cover = units * (a[t] as number);
    beforeA += units;
    coveredA += cover;
    const rest = units - cover;
    beforeB += rest;
    coveredB += rest * (b[t] as number);
  }
  sums[0] = beforeA;
  sums[1] = coveredA;
  sums[2] = beforeB;
  sums[3] = coveredB;
}

function sumThree(
  usage: Float64Array,
  hours: number,
  a: Float64Array,
  b: Float64Array,
  c: Float64Array,
  sums: Float64Array,
): void {
  let beforeA = 0;
  let coveredA = 0;
  let beforeB = 0;
  let coveredB = 0;
  let beforeC = 0;
  let coveredC = 0;
  for (let t = 0; t < hours; t++) {
    const units = usage[t] as number;
    if (units === 0) continue;
    let cover = units * (a[t] as number);
    beforeA += units;
    coveredA += cover;
    let rest = units - cover;
    cover = rest * (b[t] as number);
    beforeB += rest;
    coveredB += cover;
    rest = rest - cover;
    beforeC += rest;
    coveredC += rest * (c[t] as number);
  }
  sums[0] = beforeA;
  sums[1] = coveredA;
  sums[2] = beforeB;
  sums[3] = coveredB;
  sums[4] = beforeC;
  sums[5] = coveredC;
}

function sumFour(
  usage: Float64Array,
  hours: number,
  links: readonly Float64Array[],
  sums: Float64Array,
): void {
  const [a, b, c, d] = links as [Float64Array, Float64Array, Float64Array, Float64Array];
  let beforeA = 0;
  let coveredA = 0;
  let beforeB = 0;
  let coveredB = 0;
  let beforeC = 0;
  let coveredC = 0;
  let beforeD = 0;
  let coveredD = 0;
  for (let t = 0; t < hours; t++) {
    const units = usage[t] as number;
    if (units === 0) continue;
    let cover = units * (a[t] as number);
    beforeA += units;
    coveredA += cover;
    let rest = units - cover;
    cover = rest * (b[t] as number);
    beforeB += rest;
    coveredB += cover;
    rest = rest - cover;
    cover = rest * (c[t] as number);
    beforeC += rest;
    coveredC += cover;
    rest = rest - cover;
    beforeD += rest;
    coveredD += rest * (d[t] as number);
  }
  sums[0] = beforeA;
  sums[1] = coveredA;
  sums[2] = beforeB;
  sums[3] = coveredB;
  sums[4] = beforeC;
  sums[5] = coveredC;
  sums[6] = beforeD;
  sums[7] = coveredD;
}

function sumMany(
  usage: Float64Array,
  hours: number,
  links: readonly Float64Array[],
  length: number,
  sums: Float64Array,
): void {
  sums.fill(0, 0, 2 * length);
  for (let t = 0; t < hours; t++) {
    let rest = usage[t] as number;
    if (rest === 0) continue;
    for (let k = 0; k < length; k++) {
      const cover = rest * ((links[k] as Float64Array)[t] as number);
      sums[2 * k] = (sums[2 * k] as number) + rest;
      sums[2 * k + 1] = (sums[2 * k + 1] as number) + cover;
      rest = rest - cover;
    }
  }
}
