import { brotliDecompressSync } from 'node:zlib';
import { packedCatalog } from './data/packed-catalog';
import type { PackedCatalogFileName } from './packed-files';

/**
 * The catalog's data files as the functions ship them: one compressed string instead of the JSON
 * text, which Node would parse when the function starts though the catalog runs only on first use;
 * unpacked on first use. `npm run catalog:pack` writes it from the JSON files in ./data, which
 * stay the source to edit.
 */

let unpacked: Readonly<Record<PackedCatalogFileName, unknown>> | undefined;

/**
 * Each packed file's parsed JSON by file name, unpacked once: the catalog and the Azure size
 * table (instance-sizes.ts) both read it. Shared: read it, never change it.
 */
export function unpackCatalog(): Readonly<Record<PackedCatalogFileName, unknown>> {
  unpacked ??= JSON.parse(brotliDecompressSync(Buffer.from(packedCatalog, 'base64')).toString('utf8'));
  return unpacked as Readonly<Record<PackedCatalogFileName, unknown>>;
}
