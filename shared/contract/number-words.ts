/**
 * English number words in the spelling the spec's contract-term names use: lower case, words
 * joined with underscores (`twenty_one`, not `twenty-one`).
 */
const units = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
] as const;

const tens = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'] as const;

/** The words for an integer from 0 to 99, e.g. 34 -> `thirty_four`. */
export function englishNumberWords(n: number): string {
  if (!Number.isInteger(n) || n < 0 || n > 99) {
    throw new RangeError(`englishNumberWords takes an integer from 0 to 99, got ${n}`);
  }
  if (n < units.length) {
    return units[n] as string;
  }
  const ten = tens[Math.floor(n / 10)] as string;
  const unit = n % 10;
  return unit === 0 ? ten : `${ten}_${units[unit]}`;
}
