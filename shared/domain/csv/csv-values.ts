/** A plain decimal number: digits with an optional sign, fraction and exponent (no hex, no spaces). */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * The finite number a CSV field holds; undefined for anything else. `Number` alone would read
 * `''` as 0 and accept `0x10` and `Infinity`.
 */
export function parseDecimal(text: string): number | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) return undefined;
  return value === 0 ? 0 : value;
}
