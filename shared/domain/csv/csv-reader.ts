import { CsvErrorLog } from './csv-import-error';

/**
 * One record of a CSV file as a CSV parser read it (an adapter: the domain reads no file format),
 * at the 1-based physical line it starts on: its fields, or what makes it no CSV record (an
 * unclosed quote...), which comes last: no record after it is read.
 */
export type CsvRecord =
  | { readonly line: number; readonly fields: readonly string[] }
  | { readonly line: number; readonly problem: string };

/** One data record of a CSV file, its values looked up by column name. */
export interface CsvRow<C extends string> {
  /** 1-based physical line (the header is line 1). */
  readonly line: number;
  /** The column's value, without surrounding spaces. */
  value(column: C): string;
  /** Reports a problem of this row; the file will be rejected. */
  error(message: string): void;
}

/** A file parser fed record by record, answering what the whole file holds (the usage and commitment files). */
export interface CsvFileParser<Parsed> {
  /** Reads the next record of the file. */
  push(record: CsvRecord): void;
  /** Data rows read so far. */
  readonly rows: number;
  /** Ends the file: what it holds, or a CsvImportError listing every bad row. */
  finish(): Parsed;
}

/**
 * Reads a CSV file handed to it record by record: the first record is the header, which must name
 * each of `columns` exactly once and may name each of `optionalColumns` once, in any order; every
 * other record but a blank line is a row with one field per header column, handed to `onRow` (an
 * optional column the header leaves out reads ''). Problems are collected with their line
 * numbers; `finish` throws them all as one CsvImportError.
 */
export class CsvReader<C extends string> {
  readonly #columns: readonly C[];
  readonly #optionalColumns: readonly C[];
  readonly #onRow: (row: CsvRow<C>) => void;
  readonly #errors = new CsvErrorLog();
  #records = 0;
  #headerLine = 0;
  #rows = 0;
  /** Field position of each column; null before the header or when the header was rejected. */
  #positions: ReadonlyMap<C, number> | null = null;
  /** Columns the header names. */
  #width = 0;

  constructor(columns: readonly C[], onRow: (row: CsvRow<C>) => void, optionalColumns: readonly C[] = []) {
    this.#columns = columns;
    this.#optionalColumns = optionalColumns;
    this.#onRow = onRow;
  }

  /** Data rows read so far (blank lines are not rows). */
  get rows(): number {
    return this.#rows;
  }

  push(record: CsvRecord): void {
    this.#records += 1;
    const { line } = record;
    if (this.#records === 1) {
      this.#headerLine = line;
      this.#readHeader(record);
      return;
    }
    if ('fields' in record && isBlank(record.fields)) return;
    this.#rows += 1;
    const positions = this.#positions;
    // A rejected header makes every record unreadable; its errors say why.
    if (!positions) return;
    if ('problem' in record) {
      this.#errors.add(line, record.problem);
      return;
    }
    const { fields } = record;
    if (fields.length !== this.#width) {
      this.#errors.add(line, `has ${fields.length} fields; the header has ${this.#width}`);
      return;
    }
    this.#onRow({
      line,
      value: (column) => {
        const position = positions.get(column);
        return position === undefined ? '' : (fields[position] as string).trim();
      },
      error: (message) => this.#errors.add(line, message),
    });
  }

  /**
   * The value lookups of the rows `records` holds, as `push` would read them next (the header
   * among them when none was pushed yet), without reading them: what a parser looks ahead at,
   * e.g. to load what pricing the rows needs. Records that are no row of a valid header are left out.
   */
  *peek(records: readonly CsvRecord[]): Generator<(column: C) => string> {
    let positions = this.#positions;
    let width = this.#width;
    let rest = records;
    if (this.#records === 0) {
      const [header, ...rows] = records;
      if (!header || 'problem' in header) return;
      const names = header.fields.map((name) => name.trim());
      positions = new Map(names.map((name, position) => [name as C, position]));
      width = names.length;
      rest = rows;
    }
    if (!positions) return;
    const found = positions;
    for (const record of rest) {
      if (!('fields' in record) || record.fields.length !== width) continue;
      const { fields } = record;
      yield (column) => {
        const position = found.get(column);
        return position === undefined ? '' : (fields[position] as string).trim();
      };
    }
  }

  /** Ends the file: throws a CsvImportError when any line had a problem. */
  finish(): void {
    if (this.#records === 0) {
      this.#errors.add(1, `the file is empty; its first line must be the header ${this.#columns.join(',')}`);
    } else if (this.#positions && this.#rows === 0) {
      this.#errors.add(this.#headerLine, 'the file has a header but no rows');
    }
    this.#errors.throwIfAny();
  }

  #readHeader(record: CsvRecord): void {
    const optional =
      this.#optionalColumns.length > 0 ? `; optional: ${this.#optionalColumns.join(', ')}` : '';
    const expected = this.#columns.join(',');
    if ('problem' in record) {
      this.#errors.add(record.line, `the header is not CSV (${record.problem}); expected ${expected}`);
      return;
    }
    const names = record.fields.map((name) => name.trim());
    const known = new Set<string>([...this.#columns, ...this.#optionalColumns]);
    const positions = new Map<C, number>();
    const unknown: string[] = [];
    const repeated: string[] = [];
    names.forEach((name, position) => {
      if (!known.has(name)) unknown.push(name === '' ? '(empty)' : name);
      else if (positions.has(name as C)) repeated.push(name);
      else positions.set(name as C, position);
    });
    const missing = this.#columns.filter((column) => !positions.has(column));
    const problems = [
      missing.length > 0 ? `missing columns: ${missing.join(', ')}` : '',
      unknown.length > 0 ? `unknown columns: ${unknown.join(', ')}` : '',
      repeated.length > 0 ? `repeated columns: ${repeated.join(', ')}` : '',
    ].filter((problem) => problem !== '');
    if (problems.length > 0) {
      this.#errors.add(
        record.line,
        `bad header: ${problems.join('; ')} (expected ${expected}, in any order${optional})`,
      );
      return;
    }
    this.#positions = positions;
    this.#width = names.length;
  }
}

/** A line of nothing but spaces: csv-parse skips only empty lines. */
function isBlank(fields: readonly string[]): boolean {
  return fields.length === 1 && (fields[0] as string).trim() === '';
}
