import type { Provider } from '../domain/engine/model';
import { NotFoundError } from '../domain/errors';
import type { AppContext } from './ports';

/** Where an import is: reading the file (every PROGRESS_EVERY_ROWS rows), then writing a provider's data. */
export type ImportProgress =
  | { readonly stage: 'reading'; readonly rows: number }
  | { readonly stage: 'writing'; readonly provider: Provider; readonly month: string | null };

export const PROGRESS_EVERY_ROWS = 100_000;

/** An import of one CSV file into an org. */
export interface ImportRequest {
  readonly orgId: string;
  /** The file's lines without their line breaks, e.g. node:readline over a file stream. */
  readonly lines: AsyncIterable<string>;
  readonly onProgress?: (progress: ImportProgress) => void;
}

/** A parser fed line by line (the usage and commitment CSV parsers). */
interface LineParser<T> {
  push(line: string): void;
  readonly rows: number;
  finish(): T;
}

/** Fails with a NotFoundError before any line is read when the org does not exist. */
export async function requireOrg(ctx: AppContext, orgId: string): Promise<void> {
  if (!(await ctx.repos.orgs.get(orgId))) throw new NotFoundError(`Organization ${orgId} not found`);
}

/** Feeds every line to the parser, reporting progress; answers what it parsed or throws its CsvImportError. */
export async function readImportFile<T>(request: ImportRequest, parser: LineParser<T>): Promise<T> {
  for await (const line of request.lines) {
    parser.push(line);
    if (parser.rows > 0 && parser.rows % PROGRESS_EVERY_ROWS === 0) {
      request.onProgress?.({ stage: 'reading', rows: parser.rows });
    }
  }
  return parser.finish();
}
