import { deterministicUuid } from '../deterministic-id';
import type { ExportFile, RefusedRead } from './export-files';

/**
 * How a usage sync's reading is cut into parts (docs/usage-sync.md, Deployed): one part per file
 * to read, and a large Parquet file one part per range of its row groups, so that no part reads
 * more than `maxRowsPerPart` rows and each runs well inside one function invocation. A part is
 * named by its file's key and ETag and its range: the same part staged twice is staged once.
 */
export interface SyncPart {
  readonly key: string;
  readonly etag: string;
  readonly size: number;
  readonly billingPeriod: string;
  /** Row groups [first, end) of a Parquet file; null: the whole file. */
  readonly rowGroups: { readonly first: number; readonly end: number } | null;
  /** Set when the file is refused before it is read (a manifest or a footer over a bound). */
  readonly refused?: RefusedRead;
}

/** The rows of each row group of a Parquet file, or null for a file read whole (CSV, gzip CSV). */
export type RowGroupSizes = readonly number[] | null;

/** The part's id: its file key, ETag and row-group range, hashed to a fixed length. */
export function syncPartId(part: SyncPart): string {
  const range = part.rowGroups ? `${part.rowGroups.first}-${part.rowGroups.end}` : 'all';
  return deterministicUuid('usage-sync-part', part.key, part.etag, range);
}

/**
 * Consecutive row groups, at most `maxRows` rows in all (a group larger than that is a range of
 * its own): [first, end) of each range, covering every group once, in order.
 */
export function rowGroupRanges(sizes: readonly number[], maxRows: number): { first: number; end: number }[] {
  const ranges: { first: number; end: number }[] = [];
  let first = 0;
  let rows = 0;
  for (let group = 0; group < sizes.length; group++) {
    const size = sizes[group] as number;
    if (group > first && rows + size > maxRows) {
      ranges.push({ first, end: group });
      first = group;
      rows = 0;
    }
    rows += size;
  }
  if (sizes.length > first) ranges.push({ first, end: sizes.length });
  return ranges;
}

/** The parts of the files to read: the whole file, or its row-group ranges when it has more rows. */
export function syncParts(
  files: readonly ExportFile[],
  rowGroupsOf: ReadonlyMap<string, RowGroupSizes>,
  maxRowsPerPart: number,
): SyncPart[] {
  return files.flatMap((file): SyncPart[] => {
    const { key, etag, size, billingPeriod, refused } = file;
    if (refused) return [{ key, etag, size, billingPeriod, rowGroups: null, refused }];
    const sizes = rowGroupsOf.get(key) ?? null;
    const total = sizes?.reduce((sum, rows) => sum + rows, 0) ?? 0;
    if (!sizes || total <= maxRowsPerPart) return [{ key, etag, size, billingPeriod, rowGroups: null }];
    return rowGroupRanges(sizes, maxRowsPerPart).map((rowGroups) => ({
      key,
      etag,
      size,
      billingPeriod,
      rowGroups,
    }));
  });
}
