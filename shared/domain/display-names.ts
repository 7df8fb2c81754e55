/**
 * The one text rule for every stored string a person reads (org and company names, user names,
 * address lines, the partner's reference, offer links, a client's name on the consent page; the
 * API and the operator CLI alike): text that must show what it says. Refused: control characters
 * (C0, DEL, C1, among them NUL and BEL), invisible format characters (the bidi overrides and
 * isolates that reorder what follows, such as U+202E, the marks U+200E/U+200F, zero-width spaces
 * and joiners, U+FEFF), line and paragraph separators, blank letters that show as nothing
 * (the Hangul fillers U+115F, U+1160, U+3164, U+FFA0 and the braille blank U+2800), more than
 * `maxCombiningMarks` combining marks on one character (a stack that draws over its neighbours),
 * and text that was not UTF-8 (lone surrogates, and U+FFFD, which the body decoder puts in place
 * of bytes that are not UTF-8): each could make a name read as another. Accepted text is
 * NFC-normalized, so one spelling is stored for each name (docs/http.md, Names).
 */

/** The longest name, in UTF-16 code units after normalization. */
export const displayNameMaxLength = 255;

const refusedCharacter = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u{FFFD}\u{115F}\u{1160}\u{3164}\u{FFA0}\u{2800}]/u;

/** The most combining marks one character may carry (Vietnamese needs two; a few scripts three). */
export const maxCombiningMarks = 4;

const markStack = new RegExp(`\\p{M}{${maxCombiningMarks + 1},}`, 'u');

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
          : `must not contain control, bidi-override, zero-width or blank characters (U+${code})`,
    };
  }
  if (markStack.test(value.normalize('NFC'))) {
    return {
      ok: false,
      reason: `must not stack more than ${maxCombiningMarks} combining marks on one character`,
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

/** Scripts whose letters look alike, so that one word mixing them may imitate another word. */
const lookAlikeScripts = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
] as const;

/**
 * The look-alike scripts mixed within one word of `name` (a Cyrillic С in "Сlaude"), in the order
 * listed, or an empty list: the consent page warns of such a name (docs/oauth.md, Clients).
 */
export function mixedScripts(name: string): string[] {
  const mixed = new Set<string>();
  for (const word of name.normalize('NFC').split(/[^\p{L}\p{M}]+/u)) {
    const found = lookAlikeScripts.filter(([, letters]) => letters.test(word)).map(([script]) => script);
    if (found.length > 1) for (const script of found) mixed.add(script);
  }
  return lookAlikeScripts.map(([script]) => script).filter((script) => mixed.has(script));
}
