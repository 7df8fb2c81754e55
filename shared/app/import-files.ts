import type { CsvFileParser, CsvRecord } from '../domain/csv/csv-reader';
import type { Provider } from '../domain/engine/shapes/model';
import { NotFoundError } from '../domain/errors';
import type { ImportSessionOptions } from './import-sessions';
import { refreshPlans } from './plan-computation';
import type { AppContext } from './ports';

/**
 * Where an import is: reading the file (every PROGRESS_EVERY_ROWS rows), then writing a
 * provider's data, then computing the plans of each provider it changed.
 */
export type ImportProgress =
  | { readonly stage: 'reading'; readonly rows: number }
  | { readonly stage: 'writing'; readonly provider: Provider; readonly month: string | null }
  | { readonly stage: 'planning'; readonly provider: Provider };

export const PROGRESS_EVERY_ROWS = 100_000;

/** An import of one CSV file into an org, in a session of each provider it names. */
export interface ImportRequest extends ImportSessionOptions {
  readonly orgId: string;
  /** The file's records in batches, e.g. read from a file stream by the CSV adapter (shared/exports/csv-records.ts). */
  readonly records: AsyncIterable<readonly CsvRecord[]>;
  readonly onProgress?: (progress: ImportProgress) => void;
}

/** Fails with a NotFoundError before any record is read when the org does not exist. */
export async function requireOrg(ctx: AppContext, orgId: string): Promise<void> {
  if (!(await ctx.repos.orgs.get(orgId))) throw new NotFoundError(`Organization ${orgId} not found`);
}

/**
 * Feeds every record to the parser, reporting progress; answers what it parsed or throws its
 * CsvImportError. `beforeBatch` runs before each batch is fed (the usage file loads the catalog
 * regions of the batch's rows there).
 */
export async function readImportFile<T>(
  request: Pick<ImportRequest, 'records' | 'onProgress'>,
  parser: CsvFileParser<T>,
  beforeBatch?: (batch: readonly CsvRecord[]) => Promise<void>,
): Promise<T> {
  for await (const batch of request.records) {
    await beforeBatch?.(batch);
    for (const record of batch) {
      parser.push(record);
      if (parser.rows > 0 && parser.rows % PROGRESS_EVERY_ROWS === 0) {
        request.onProgress?.({ stage: 'reading', rows: parser.rows });
      }
    }
  }
  return parser.finish();
}

/**
 * Computes the plans of the providers an import changed, so that they are current when it ends
 * (a provider whose plans another process is computing is left to it: the plan endpoints
 * compute whatever is still stale).
 */
export async function refreshImportedPlans(
  ctx: AppContext,
  request: Pick<ImportRequest, 'orgId' | 'onProgress'>,
  providers: readonly Provider[],
): Promise<void> {
  for (const provider of providers) {
    request.onProgress?.({ stage: 'planning', provider });
    await refreshPlans(ctx, request.orgId, provider);
  }
}
