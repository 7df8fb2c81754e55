import { ValidationError } from '../errors';

/** At most this many errors are kept and reported; the rest are counted. */
export const MAX_REPORTED_CSV_ERRORS = 50;

/** One problem of an imported file, at its 1-based physical line (the header is line 1). */
export interface CsvLineError {
  readonly line: number;
  readonly message: string;
}

/** `line 17: units must be a number >= 0` */
export function formatCsvLineError(error: CsvLineError): string {
  return `line ${error.line}: ${error.message}`;
}

/**
 * An imported file was rejected: nothing of it was stored. `errors` holds the first
 * MAX_REPORTED_CSV_ERRORS problems in line order; `errorCount` counts them all.
 */
export class CsvImportError extends ValidationError {
  readonly errors: readonly CsvLineError[];
  readonly errorCount: number;

  constructor(errors: readonly CsvLineError[], errorCount: number) {
    const fields: Record<string, string[]> = {};
    for (const { line, message } of errors)
      fields[`line ${line}`] = [...(fields[`line ${line}`] ?? []), message];
    super(`The file has ${errorCount} error${errorCount === 1 ? '' : 's'}; nothing was imported`, fields);
    this.errors = errors;
    this.errorCount = errorCount;
  }
}

/** Collects a file's errors: keeps the first MAX_REPORTED_CSV_ERRORS, counts every one. */
export class CsvErrorLog {
  readonly #kept: CsvLineError[] = [];
  #count = 0;

  add(line: number, message: string): void {
    this.#count += 1;
    if (this.#kept.length < MAX_REPORTED_CSV_ERRORS) this.#kept.push({ line, message });
  }

  get count(): number {
    return this.#count;
  }

  /** Throws the CsvImportError of the collected errors, if there are any. */
  throwIfAny(): void {
    if (this.#count > 0) throw new CsvImportError(this.#kept, this.#count);
  }
}
