import { describe, expect, it } from 'vitest';
import { CsvSyntaxError, splitCsvLine } from '../../../shared/domain/csv/csv-line';

describe('CSV line splitting', () => {
  it('splits bare fields on commas, keeping empty fields', () => {
    expect(splitCsvLine('a,b,,d,')).toEqual(['a', 'b', '', 'd', '']);
    expect(splitCsvLine('')).toEqual(['']);
  });

  it('reads quoted fields holding commas and doubled quotes', () => {
    expect(splitCsvLine('"a,b",c,"say ""hi""","",x')).toEqual(['a,b', 'c', 'say "hi"', '', 'x']);
    expect(splitCsvLine('"",""')).toEqual(['', '']);
    expect(splitCsvLine('x,"a,b"')).toEqual(['x', 'a,b']);
    expect(splitCsvLine('"a",')).toEqual(['a', '']);
  });

  it('rejects a quote left open on its line', () => {
    expect(() => splitCsvLine('a,"b,c')).toThrow(CsvSyntaxError);
    expect(() => splitCsvLine('a,"b,c')).toThrow('field 2 opens a quote that is not closed');
  });

  it('rejects text after a closing quote and quotes inside bare text', () => {
    expect(() => splitCsvLine('"a"b,c')).toThrow('field 1 has text after its closing quote');
    expect(() => splitCsvLine('a,b"c"')).toThrow('field 2 has a quote inside unquoted text');
  });
});
