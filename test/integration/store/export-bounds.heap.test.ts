import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { usageSyncMemorySize } from '../../../lib/usage-sync-settings';
import { collectText, repositoryRoot } from '../../support/entry-point-process';
import { enormousFieldGzipCsv, oneRowGroupCur2Parquet } from '../../support/oversized-exports';

/**
 * The bounds hold under a heap like the usage-sync function's: Node gives its heap about a quarter
 * of the memory it runs in (docs/usage-sync.md, Bounds), so the reader runs in a child process with
 * `--max-old-space-size` of a quarter of the function's memory, on files the issue found exhausting
 * it, and must end with the file refused, not killed for lack of heap.
 */

const heapMb = Math.floor(usageSyncMemorySize / 4);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'export-bounds-heap-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Runs test/support/read-sync-file.ts on the file under the function's heap; answers how it ended. */
async function readUnderFunctionHeap(path: string) {
  const child = spawn(
    process.execPath,
    [`--max-old-space-size=${heapMb}`, '--import', 'tsx', 'test/support/read-sync-file.ts', path],
    { cwd: repositoryRoot, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const stdout = collectText(child.stdout);
  const stderr = collectText(child.stderr);
  const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
  return { code, signal, stdout: stdout(), stderr: stderr() };
}

describe('export bounds under the usage-sync function heap', () => {
  it('refuses a gzip CSV holding one 300 MiB field instead of running out of heap', async () => {
    const path = join(dir, 'enormous-field.csv.gz');
    await writeFile(path, enormousFieldGzipCsv(300));

    const ended = await readUnderFunctionHeap(path);

    expect(ended.stderr).not.toContain('heap out of memory');
    expect({ code: ended.code, signal: ended.signal }, ended.stderr).toEqual({ code: 0, signal: null });
    expect(JSON.parse(ended.stdout)).toEqual({
      rows: 0,
      refused: [
        {
          file: 'enormous-field.csv.gz',
          code: 'csv_record_chars',
          reason: 'line 2 of the file is longer: over the bound csv_record_chars of 1,048,576 characters',
        },
      ],
    });
  });

  it('refuses a Parquet file whose one row group is over the rows bound, from its footer', async () => {
    // A million and one rows in one row group: a few KB on disk.
    const path = join(dir, 'one-row-group.parquet');
    await writeFile(path, oneRowGroupCur2Parquet(1_000_001));

    const ended = await readUnderFunctionHeap(path);

    expect(ended.stderr).not.toContain('heap out of memory');
    expect({ code: ended.code, signal: ended.signal }, ended.stderr).toEqual({ code: 0, signal: null });
    expect(JSON.parse(ended.stdout)).toEqual({
      rows: 0,
      refused: [
        {
          file: 'one-row-group.parquet',
          code: 'row_group_rows',
          reason:
            'row group 0 of the Parquet file has 1000001 rows: over the bound row_group_rows of 1,000,000 rows',
        },
      ],
    });
  });
});
