/**
 * Names people type and others read (org and company names, user names, client names): text that
 * must show what it says. Refused: control characters (C0, DEL, C1, among them NUL), the bidi
 * overrides and isolates that reorder what follows (U+202A-U+202E, U+2066-U+2069) and the marks
 * U+200E/U+200F, zero-width characters that make two names look alike (U+200B-U+200D, U+2060,
 * U+FEFF), line and paragraph separators, and text that was not UTF-8 (lone surrogates, and
 * U+FFFD, which the body decoder puts in place of bytes that are not UTF-8). Accepted names are
 * NFC-normalized, so one spelling is stored for each name (docs/http.md, Names).
 */

const refusedCharacter = /[\p{Cc}\p{Cs}\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff\ufffd]/u;

export type DisplayNameCheck =
  | { readonly ok: true; readonly value: string }
  | { readonly ok: false; readonly reason: string };

/** The name as stored (NFC), or why it is refused. */
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

/**
 * What two names are compared by: compatibility forms folded (NFKC: full-width letters, ligatures),
 * case ignored, surrounding and repeated spaces ignored. `Ｅｖｉｌ  child` and `evil child` are
 * the same name.
 */
export function displayNameKey(value: string): string {
  return value.normalize('NFKC').trim().replace(/\s+/g, ' ').toLowerCase();
}
