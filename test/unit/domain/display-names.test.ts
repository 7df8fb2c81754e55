import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkDisplayName,
  displayName,
  displayNameKey,
  displayNameMaxLength,
} from '../../../shared/domain/display-names';
import { storedConsentError } from '../../../shared/domain/onboarding/consent-answer';

describe('checkDisplayName', () => {
  it.each([
    ['NUL', 'a\u0000b', 'U+0000'],
    ['DEL', 'a\u007fb', 'U+007F'],
    ['a C1 control', 'a\u0085b', 'U+0085'],
    ['right-to-left override', 'a\u202eb', 'U+202E'],
    ['left-to-right embedding', 'a\u202ab', 'U+202A'],
    ['first strong isolate', 'a\u2068b', 'U+2068'],
    ['pop directional isolate', 'a\u2069b', 'U+2069'],
    ['zero-width space', 'a\u200bb', 'U+200B'],
    ['word joiner', 'a\u2060b', 'U+2060'],
    ['zero-width no-break space', 'a\ufeffb', 'U+FEFF'],
  ])('refuses %s, naming the code point', (_what, value, code) => {
    expect(checkDisplayName(value)).toEqual({ ok: false, reason: expect.stringContaining(code) });
  });

  it('refuses what was not UTF-8: a replacement character or a lone surrogate', () => {
    expect(checkDisplayName('a\ufffdb')).toEqual({ ok: false, reason: 'must be valid UTF-8 text' });
    expect(checkDisplayName('a\udc00b')).toEqual({ ok: false, reason: 'must be valid UTF-8 text' });
  });

  it('keeps ordinary names in every script, NFC-normalized', () => {
    expect(checkDisplayName('Cafe\u0301 Müller 東京 مرحبا')).toEqual({
      ok: true,
      value: 'Caf\u00e9 Müller 東京 مرحبا',
    });
  });

  it('accepts every string of letters, digits and spaces, as NFC', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'Z', '7', ' ', 'é', 'e\u0301', 'ß', 'Ａ', 'ﬁ', '東'),
    });
    fc.assert(
      fc.property(text, (value) => {
        const checked = checkDisplayName(value);
        expect(checked).toEqual({ ok: true, value: value.normalize('NFC') });
      }),
    );
  });
});

describe('displayNameKey', () => {
  it('compares names regardless of case, spaces, composition and compatibility forms', () => {
    expect(displayNameKey('  Ｅｖｉｌ   CAFE\u0301 ')).toBe(displayNameKey('evil café'));
    expect(displayNameKey('ﬁrm')).toBe('firm');
  });
});

describe('storedConsentError', () => {
  it('keeps an OAuth error code and printable text, escapes the rest and cuts it at 300 characters', () => {
    // "\u202e" becomes the 8 characters "\u{202e}"; 300 - 3 for "..." leaves 297 for the text
    const stored = storedConsentError('access_denied', `no\u202e${'y'.repeat(400)}`);
    expect(stored).toBe(`access_denied: no\\u{202e}${'y'.repeat(297 - 2 - 8)}...`);
  });

  it('replaces an error code of another shape', () => {
    expect(storedConsentError('<b>bad</b>', undefined)).toBe('invalid_error');
    expect(storedConsentError(undefined, undefined)).toBe('consent_not_granted');
  });
});

describe('displayName', () => {
  it('refuses control, bidi, zero-width and invalid characters', () => {
    for (const raw of [
      'Evil\u0000Corp',
      'Tab\there',
      'Line\nbreak',
      'Evil\u200bChild', // zero-width space
      'Joined\u200dname', // zero-width joiner
      'gpj.\u202Eexe', // right-to-left override
      'Isolate\u2066d', // left-to-right isolate
      'Mark\u200Fed', // right-to-left mark
      '\uFEFFBOM',
      'Lone\uD800surrogate',
      'Bad\uFFFDbytes', // what invalid UTF-8 decodes to
      'Para\u2029graph',
    ]) {
      expect(displayName(raw), JSON.stringify(raw)).toHaveProperty('problem');
    }
  });

  it('keeps letters, marks, spaces and punctuation of any script', () => {
    for (const raw of ['Acme Ltd.', 'Café Müller', '株式会社テスト', 'Ōsaka & Co', 'O’Brien (EU)']) {
      expect(displayName(raw), raw).toEqual({ name: raw });
    }
  });

  it('normalizes to NFC and trims, so two spellings of one name are one name', () => {
    // "é" written as e + U+0301 (combining acute) becomes the one code point U+00E9.
    expect(displayName('  Cafe\u0301 ')).toEqual({ name: 'Caf\u00e9' });
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (raw) => {
        const result = displayName(raw);
        if ('name' in result) {
          expect(result.name).toBe(result.name.normalize('NFC').trim());
          expect(displayName(result.name)).toEqual(result);
        }
      }),
    );
  });

  it('refuses an empty name and one over the limit', () => {
    expect(displayName('   ')).toEqual({ problem: 'must not be empty' });
    expect(displayName('x'.repeat(displayNameMaxLength))).toEqual({ name: 'x'.repeat(displayNameMaxLength) });
    expect(displayName('x'.repeat(displayNameMaxLength + 1))).toHaveProperty('problem');
  });
});
