/** The sum of hourly values over hours [start, end); the one hot-path summation every module uses. */
export function sumOverHours(values: Float64Array, start = 0, end = values.length): number {
  let total = 0;
  for (let t = start; t < end; t++) total += values[t] as number;
  return total;
}
