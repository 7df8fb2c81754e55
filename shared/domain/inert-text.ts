/**
 * Text from outside (a caller's parameter, a file's header) as a message may quote it: printable
 * ASCII only, every other character written as a `\u{...}` escape, cut to a fixed length (`...`
 * marks the cut). A terminal or a log shows it as it is, with no control byte acting on either.
 */

const printableAscii = /^[\x20-\x7e]$/;

/** `text` inert and at most `max` characters long, escapes and the cut mark included. */
export function inertText(text: string, max: number): string {
  let kept = '';
  for (const character of text) {
    const piece = printableAscii.test(character)
      ? character
      : `\\u{${(character.codePointAt(0) ?? 0).toString(16)}}`;
    if (kept.length + piece.length > max - 3) return `${kept}...`;
    kept += piece;
  }
  return kept;
}
