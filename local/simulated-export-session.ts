import { createReadStream } from 'node:fs';
import { open, readFile, stat } from 'node:fs/promises';
import type { ExportSource, UsageSourceSession } from '../shared/app/ports/usage-sync';
import { readTextAtMost } from '../shared/cloud/usage-sources/read-at-most';
import type { ExistingCommitment } from '../shared/domain/engine/shapes/model';
import {
  currentExportFiles,
  type ExportLayout,
  exportListingPrefix,
  type ListedObject,
} from '../shared/domain/usage-sources/export-files';

/**
 * Where a simulated export is kept: an S3 bucket of an AWS account or a storage container of an
 * Azure subscription (docs/onboarding.md, The simulated cloud). Both sources' sessions are one
 * piece of code over it; only the keys, their files, the ETag form and the commitments differ.
 */
export interface SimulatedExportStore {
  readonly layout: ExportLayout;
  /** Every object key the store lists now (read on each listing: deliveries add keys). */
  keys(): Promise<readonly string[]>;
  /** The local file holding the object `key`. */
  pathOf(key: string): string;
  /** The store's ETag of an object's bytes. */
  etagOf(bytes: Uint8Array): string;
  /** The commitments owned at `at` (milliseconds since the epoch). */
  ownedCommitments(at: number): Promise<ExistingCommitment[]>;
}

/** A usage-source session reading a simulated store as the sync reads the provider's. */
export function simulatedExportSession(store: SimulatedExportStore, now: () => Date): UsageSourceSession {
  return {
    async listExportFiles() {
      const objects = await listedObjects(store, await store.keys(), exportListingPrefix(store.layout));
      return currentExportFiles(store.layout, objects, (key, maxBytes) =>
        readTextAtMost(createReadStream(store.pathOf(key)), maxBytes),
      );
    },
    openExportFile(file) {
      return simulatedFileSource(store.pathOf(file.key), file.size);
    },
    ownedCommitments() {
      return store.ownedCommitments(now().getTime());
    },
  };
}

/** The objects under `prefix` whose file is stored (a key without one was never delivered). */
export async function listedObjects(
  store: Pick<SimulatedExportStore, 'pathOf' | 'etagOf'>,
  keys: readonly string[],
  prefix: string,
): Promise<ListedObject[]> {
  const objects: ListedObject[] = [];
  for (const key of keys.filter((each) => each.startsWith(prefix))) {
    const path = store.pathOf(key);
    const found = await stat(path).catch(() => null);
    if (!found) continue;
    objects.push({
      key,
      etag: store.etagOf(await readFile(path)),
      size: found.size,
      lastModified: found.mtime.toISOString(),
    });
  }
  return objects;
}

/** A stored file of the simulated cloud as a sync reads it: opened for each ranged read, streamed whole. */
export function simulatedFileSource(path: string, size: number): ExportSource {
  return {
    random: {
      byteLength: size,
      async slice(start: number, end?: number) {
        const handle = await open(path);
        try {
          const length = Math.max(0, Math.min(end ?? size, size) - start);
          const buffer = Buffer.alloc(length);
          await handle.read(buffer, 0, length, start);
          return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + length) as ArrayBuffer;
        } finally {
          await handle.close();
        }
      },
    },
    async *stream() {
      for await (const chunk of createReadStream(path)) yield chunk as Uint8Array;
    },
  };
}
