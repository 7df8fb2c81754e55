/**
 * Names people read (a client's name on the consent page, org and user names): text only. A name
 * must not carry control characters, invisible format characters (bidi overrides and isolates
 * such as U+202E, zero-width spaces and joiners, U+FEFF), line or paragraph separators, lone
 * surrogates, or U+FFFD (what invalid UTF-8 decodes to): each could make a name read as another.
 * Names are NFC-normalized and trimmed, so two spellings of one name compare equal.
 */

/** The longest name, in UTF-16 code units after normalization. */
export const displayNameMaxLength = 255;

const refusedCharacters = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u{FFFD}]/u;

/** The name as stored (NFC, trimmed), or why it is refused. */
export function displayName(raw: string): { readonly name: string } | { readonly problem: string } {
  if (refusedCharacters.test(raw)) {
    return {
      problem: 'must not contain control, invisible formatting (bidi, zero-width) or invalid characters',
    };
  }
  const name = raw.normalize('NFC').trim();
  if (name === '') return { problem: 'must not be empty' };
  if (name.length > displayNameMaxLength)
    return { problem: `must be at most ${displayNameMaxLength} characters` };
  return { name };
}
