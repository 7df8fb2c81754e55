/**
 * Reads one export file as a usage sync does (its parts planned from its footer, then each part
 * read into staged hours: shared/app/usage-sync-steps.ts), in a process of its own, so that a test
 * can run it under a heap limit like the usage-sync function's:
 *
 *   node --max-old-space-size=<MB> --import tsx test/support/read-sync-file.ts <file>
 *
 * Prints one JSON line: the rows read and the files refused over a bound. A reader that runs out of
 * heap dies instead (V8's "heap out of memory"), printing nothing.
 */
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { planSyncParts, readSyncPart } from '../../shared/app/usage-sync-steps';
import { fileExportSource } from '../../shared/exports/file-export-source';
import { syncExportReaders } from '../../shared/exports/read-export';

const path = process.argv[2];
if (!path) throw new Error('usage: read-sync-file.ts <file>');
const source = await fileExportSource(path);
const file = {
  key: basename(path),
  etag: 'generated',
  size: (await stat(path)).size,
  billingPeriod: '2026-06',
};
const session = { openExportFile: () => source };
// No refreshed catalog stored: the bundled table prices the rows, as on a fresh deployment.
const readers = { ...syncExportReaders, repos: { catalog: { current: async () => undefined } } } as const;
let rows = 0;
const refused: { file: string; code: string; reason: string }[] = [];
for (const part of await planSyncParts(syncExportReaders, session, [file])) {
  const staged = await readSyncPart(readers as never, session, part, new Date('2026-07-01T00:00:00Z'));
  rows += staged.rows;
  if (staged.refused) refused.push({ file: staged.key, ...staged.refused });
}
await source.close();
console.log(JSON.stringify({ rows, refused }));
