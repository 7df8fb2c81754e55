/**
 * Names people type and others read (org and company names, user names, a client's name on the
 * consent page): text that must show what it says. Refused: control characters (C0, DEL, C1,
 * among them NUL), invisible format characters (the bidi overrides and isolates that reorder what
 * follows, such as U+202E, the marks U+200E/U+200F, zero-width spaces and joiners, U+FEFF), line
 * and paragraph separators, and text that was not UTF-8 (lone surrogates, and U+FFFD, which the
 * body decoder puts in place of bytes that are not UTF-8): each could make a name read as another.
 * Accepted names are NFC-normalized, so one spelling is stored for each name (docs/http.md, Names).
 */

/** The longest name, in UTF-16 code units after normalization. */
export const displayNameMaxLength = 255;

const refusedCharacter = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u{FFFD}]/u;

export type DisplayNameCheck =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly reason: string };

/** The name as stored (NFC), or why it is refused, naming the first refused character. */
export function checkDisplayName(value: string): DisplayNameCheck {
  const found = refusedCharacter.exec(value);
  if (found) {
    const code = (found[0].codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
    return {
      ok: false,
      reason:
        found[0] === '\ufffd' || /^\p{Cs}$/u.test(found[0])
          ? 'must be valid UTF-8 text'
          : `must not contain control, bidi-override or zero-width characters (U+${code})`,
    };
  }
  return { ok: true, value: value.normalize('NFC') };
}

/** A name as stored (NFC, trimmed, not empty, at most displayNameMaxLength), or why it is refused. */
export function displayName(raw: string): { readonly name: string } | { readonly problem: string } {
  const checked = checkDisplayName(raw);
  if (!checked.ok) return { problem: checked.reason };
  const name = checked.value.trim();
  if (name === '') return { problem: 'must not be empty' };
  if (name.length > displayNameMaxLength)
    return { problem: `must be at most ${displayNameMaxLength} characters` };
  return { name };
}

/**
 * What two names are compared by: compatibility forms folded (NFKC: full-width letters, ligatures),
 * case ignored, surrounding and repeated spaces ignored. `Ｅｖｉｌ  child` and `evil child` are
 * the same name.
 */
export function displayNameKey(value: string): string {
  return value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}
