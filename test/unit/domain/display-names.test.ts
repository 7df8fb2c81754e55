import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayName, displayNameMaxLength } from '../../../shared/domain/display-names';

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
