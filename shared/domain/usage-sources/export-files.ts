/**
 * Which files of a cost export are current (docs/onboarding.md, What the sync reads): each
 * provider delivers a billing period's data files with a manifest naming them, and delivers the
 * period again as it fills in. The current files of a period are those its newest manifest names;
 * files of earlier deliveries left beside them are not read.
 *
 * - AWS Data Exports (CUR 2.0, FOCUS): `<prefix>/<export>/data/BILLING_PERIOD=YYYY-MM/...`, the
 *   manifest `<prefix>/<export>/metadata/BILLING_PERIOD=YYYY-MM/[<execution>/]<export>-Manifest.json`
 *   naming its files in `dataFiles` as `s3://` URIs.
 * - Legacy CUR: `<prefix>/<report>/<yyyymmdd-yyyymmdd>/<report>-Manifest.json` naming its files in
 *   `reportKeys` as keys (an assembly's own copy of the manifest, one folder deeper, is not read).
 * - Azure Cost Management exports: `<directory>/<export>/<yyyymmdd-yyyymmdd>/[<run>/]manifest.json`
 *   naming its files in `blobs[].blobName` as blob names in the container.
 */

import {
  checkBound,
  ExportBoundError,
  type ExportBounds,
  exportBounds,
} from '../usage/exports/export-bounds';

/** A file of the export a sync may read, as the bucket or container lists it. */
export interface ExportFile {
  /** The S3 key or blob name. */
  readonly key: string;
  /** The object's ETag (quotes removed): it changes when the file is delivered again. */
  readonly etag: string;
  readonly size: number;
  /** `YYYY-MM`: the billing period whose manifest names it. */
  readonly billingPeriod: string;
  /**
   * Set on a period's manifest that is over a bound (export-bounds.ts): it stands for the period's
   * files, none of which is read, and the sync refuses the period with this reason.
   */
  readonly refused?: RefusedRead;
}

/** Why a file is not read: over the bound `code` (export-bounds.ts exportBoundCodes). */
export interface RefusedRead {
  readonly code: string;
  readonly reason: string;
}

/** An object under the export's root as a listing answers it. */
export interface ListedObject {
  readonly key: string;
  readonly etag: string;
  readonly size: number;
  /** ISO 8601. */
  readonly lastModified: string;
}

export type ExportLayout =
  | { readonly kind: 'data-exports'; readonly bucket: string; readonly prefix: string; readonly name: string }
  | { readonly kind: 'legacy-cur'; readonly bucket: string; readonly prefix: string; readonly name: string }
  | { readonly kind: 'azure-cost-export'; readonly directory: string; readonly name: string };

/** A manifest is unreadable, or names a file the listing does not hold. */
export class ExportManifestError extends Error {
  constructor(
    /** The manifest's key. */
    readonly manifestKey: string,
    message: string,
  ) {
    super(message);
    this.name = 'ExportManifestError';
  }
}

/** `<prefix>/<name>`, without empty parts or doubled slashes (an empty prefix delivers at the root). */
export function exportRoot(layout: ExportLayout): string {
  const base = layout.kind === 'azure-cost-export' ? layout.directory : layout.prefix;
  return [...base.split('/'), layout.name].filter((part) => part !== '').join('/');
}

/** The prefix to list: everything under the export's root. */
export function exportListingPrefix(layout: ExportLayout): string {
  return `${exportRoot(layout)}/`;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `yyyymmdd-yyyymmdd` -> the billing period of its first day. */
const rangePeriod = (range: string) => `${range.slice(0, 4)}-${range.slice(4, 6)}`;

/** The billing period a manifest key belongs to, or null when the key is not a current manifest. */
export function manifestPeriod(layout: ExportLayout, key: string): string | null {
  const root = escapeRegExp(exportRoot(layout));
  const name = escapeRegExp(layout.name);
  if (layout.kind === 'data-exports') {
    const match = new RegExp(
      `^${root}/metadata/BILLING_PERIOD=(\\d{4}-\\d{2})/(?:[^/]+/)?[^/]*Manifest\\.json$`,
    ).exec(key);
    return match?.[1] ?? null;
  }
  if (layout.kind === 'legacy-cur') {
    const match = new RegExp(`^${root}/(\\d{8})-\\d{8}/${name}-Manifest\\.json$`).exec(key);
    return match?.[1] ? rangePeriod(match[1]) : null;
  }
  const match = new RegExp(`^${root}/(\\d{8})-\\d{8}/(?:[^/]+/)?manifest\\.json$`).exec(key);
  return match?.[1] ? rangePeriod(match[1]) : null;
}

/** The newest manifest of each billing period (by when it was written), in period order. */
export function currentManifests(
  layout: ExportLayout,
  listed: readonly ListedObject[],
): { readonly key: string; readonly billingPeriod: string }[] {
  const newest = new Map<string, ListedObject>();
  for (const object of listed) {
    const period = manifestPeriod(layout, object.key);
    if (!period) continue;
    const kept = newest.get(period);
    const later = kept && Date.parse(object.lastModified) - Date.parse(kept.lastModified);
    // Written in the same second: the later key (a later execution's folder) wins.
    if (!kept || (later as number) > 0 || (later === 0 && object.key > kept.key)) newest.set(period, object);
  }
  return [...newest.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([billingPeriod, object]) => ({ key: object.key, billingPeriod }));
}

/** The keys a manifest names, as its provider writes them (at most `maxFiles`: ExportBoundError). */
export function manifestKeys(
  layout: ExportLayout,
  manifestKey: string,
  text: string,
  bounds: ExportBounds = exportBounds,
): string[] {
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    throw new ExportManifestError(manifestKey, `manifest ${manifestKey} is not JSON`);
  }
  const field =
    layout.kind === 'data-exports' ? 'dataFiles' : layout.kind === 'legacy-cur' ? 'reportKeys' : 'blobs';
  const listed = (manifest as Record<string, unknown> | null)?.[field];
  if (!Array.isArray(listed)) {
    throw new ExportManifestError(manifestKey, `manifest ${manifestKey} has no ${field} list`);
  }
  checkBound(bounds, 'filesPerPeriod', listed.length, () => `the manifest names ${listed.length} files`);
  return listed.map((entry) => {
    if (layout.kind === 'azure-cost-export') {
      const name = (entry as { blobName?: unknown } | null)?.blobName;
      if (typeof name !== 'string' || !name) {
        throw new ExportManifestError(manifestKey, `manifest ${manifestKey} has a blob without blobName`);
      }
      return name.replace(/^\/+/, '');
    }
    if (typeof entry !== 'string' || !entry) {
      throw new ExportManifestError(
        manifestKey,
        `manifest ${manifestKey} has an entry of ${field} that is not a key`,
      );
    }
    if (layout.kind === 'data-exports' && entry.startsWith('s3://')) {
      const [bucket, ...key] = entry.slice('s3://'.length).split('/');
      if (bucket !== layout.bucket) {
        throw new ExportManifestError(
          manifestKey,
          `manifest ${manifestKey} names ${entry}, outside bucket ${layout.bucket}`,
        );
      }
      return key.join('/');
    }
    return entry;
  });
}

/**
 * The current files of the export: each period's newest manifest, read with `readManifest`,
 * names its files, answered with the listing's ETag and size. A named file the listing does not
 * hold fails the whole answer (the delivery is incomplete or the manifest is wrong). A manifest
 * over a bound (its bytes, the files it names) is answered as the period's only file, `refused`:
 * the sync refuses that period and reads the others. `readManifest` reads at most `maxBytes` + 1
 * bytes, so that a manifest larger than the listing said is still caught.
 */
export async function currentExportFiles(
  layout: ExportLayout,
  listed: readonly ListedObject[],
  readManifest: (key: string, maxBytes: number) => Promise<string>,
  bounds: ExportBounds = exportBounds,
): Promise<ExportFile[]> {
  const byKey = new Map(listed.map((object) => [object.key, object]));
  const files: ExportFile[] = [];
  for (const manifest of currentManifests(layout, listed)) {
    let keys: string[];
    try {
      keys = await boundedManifestKeys(layout, manifest.key, byKey.get(manifest.key), readManifest, bounds);
    } catch (error) {
      if (!(error instanceof ExportBoundError)) throw error;
      const object = byKey.get(manifest.key);
      files.push({
        key: manifest.key,
        etag: object?.etag ?? '',
        size: object?.size ?? 0,
        billingPeriod: manifest.billingPeriod,
        refused: { code: error.boundCode, reason: error.message },
      });
      continue;
    }
    for (const key of new Set(keys)) {
      const object = byKey.get(key);
      if (!object) {
        throw new ExportManifestError(
          manifest.key,
          `manifest ${manifest.key} names ${key}, which is not delivered`,
        );
      }
      files.push({ key, etag: object.etag, size: object.size, billingPeriod: manifest.billingPeriod });
    }
  }
  return files.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

async function boundedManifestKeys(
  layout: ExportLayout,
  key: string,
  object: ListedObject | undefined,
  readManifest: (key: string, maxBytes: number) => Promise<string>,
  bounds: ExportBounds,
): Promise<string[]> {
  const listedBytes = object?.size ?? 0;
  checkBound(bounds, 'manifestBytes', listedBytes, () => `the manifest is ${listedBytes} bytes`);
  const text = await readManifest(key, bounds.manifestBytes);
  const bytes = new TextEncoder().encode(text).length;
  checkBound(bounds, 'manifestBytes', bytes, () => 'the manifest read is longer than listed');
  return manifestKeys(layout, key, text, bounds);
}

/** An ETag as S3 and Azure answer it (`"..."`, or W/"..." for a weak one), without its quotes. */
export function bareEtag(etag: string): string {
  return etag.replace(/^W\//, '').replace(/^"(.*)"$/, '$1');
}

/**
 * Whether an object key (or a prefix) holds a `.` or `..` segment. A URL parser folds such
 * segments away, so `focus/../other/file` would read `other/file`, outside the export's prefix:
 * the readers refuse such keys rather than send them (docs/usage-sync.md, What is refused).
 */
export function hasDotSegment(key: string): boolean {
  return key.split('/').some((segment) => segment === '.' || segment === '..');
}
