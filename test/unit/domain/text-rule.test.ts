import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDisplayName, maxCombiningMarks, mixedScripts } from '../../../shared/domain/display-names';

/**
 * The one text rule for stored strings a person reads (shared/domain/display-names.ts), checked
 * over generated strings: a refused character anywhere in any text is refused, text made of
 * readable characters is accepted as its NFC form, and stacks of combining marks are refused past
 * the limit. The oracle is the list of characters the issue names, not the rule's own pattern.
 */

/** Characters that must never be stored: controls, bidi and zero-width formats, blanks that show as nothing. */
const refused = [
  '\u0000', // NUL
  '\u0007', // BEL
  '\u001b', // ESC
  '\u007f', // DEL
  '\u0085', // NEL (C1)
  '\u200b', // zero-width space
  '\u200d', // zero-width joiner
  '\u200e', // left-to-right mark
  '\u202e', // right-to-left override
  '\u2066', // left-to-right isolate
  '\u2028', // line separator
  '\ufeff', // byte order mark
  '\u115f', // Hangul choseong filler
  '\u1160', // Hangul jungseong filler
  '\u3164', // Hangul filler
  '\uffa0', // half-width Hangul filler
  '\u2800', // braille blank
  '\ufffd', // replacement character
];

/** Readable characters: letters of several scripts, digits, punctuation, spaces, one accent at a time. */
const readable = fc.constantFrom(
  ..."abcXYZ019 -_.,&()'éñüßÆøÅ日本語中文한국어Ελληνικάкириллицаעבריתالعربية".split(''),
  'e\u0301',
  'a\u0308\u0304',
);

describe('the text rule over generated strings', () => {
  it('refuses any text holding a refused character, wherever it stands', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom(...refused), fc.string(), (before, bad, after) => {
        expect(checkDisplayName(`${before}${bad}${after}`).ok).toBe(false);
      }),
    );
  });

  it('accepts text of readable characters, as its NFC form', () => {
    fc.assert(
      fc.property(fc.array(readable, { maxLength: 60 }), (characters) => {
        const text = characters.join('');
        expect(checkDisplayName(text)).toEqual({ ok: true, value: text.normalize('NFC') });
      }),
    );
  });

  it(`refuses a character carrying more than ${maxCombiningMarks} combining marks, and accepts up to that`, () => {
    const marks = ['\u0300', '\u0301', '\u0302', '\u0303', '\u0308', '\u0327', '\u0336'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...marks), { minLength: 1, maxLength: 60 }),
        fc.string({ maxLength: 5 }).filter((text) => checkDisplayName(text).ok),
        (stack, after) => {
          const text = `z${stack.join('')}${after}`;
          // The oracle: the longest run of marks once composed, counted by a plain loop.
          let longest = 0;
          let run = 0;
          for (const character of text.normalize('NFC')) {
            run = /\p{M}/u.test(character) ? run + 1 : 0;
            longest = Math.max(longest, run);
          }
          expect(checkDisplayName(text).ok).toBe(longest <= maxCombiningMarks);
        },
      ),
    );
    expect(checkDisplayName(`Zalgo${'\u0336'.repeat(50)}`).ok).toBe(false);
  });
});

describe('mixed scripts in one word', () => {
  it('names the scripts of a name that imitates another (a Cyrillic С in "Сlaude")', () => {
    expect(mixedScripts('\u0421laude')).toEqual(['Latin', 'Cyrillic']);
    expect(mixedScripts('G\u03bfogle Drive')).toEqual(['Latin', 'Greek']);
  });

  it('names none for a name in one script per word', () => {
    expect(mixedScripts('Claude')).toEqual([]);
    expect(mixedScripts('Клод Claude')).toEqual([]);
    expect(mixedScripts('日本 Claude')).toEqual([]);
  });
});
