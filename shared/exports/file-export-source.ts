import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { ExportSource } from './read-export';

/** A local file as an export source: ranged reads for Parquet, a read stream for CSV. */
export async function fileExportSource(path: string): Promise<ExportSource & { close(): Promise<void> }> {
  const handle = await open(path);
  const { size } = await handle.stat();
  return {
    random: {
      byteLength: size,
      async slice(start, end) {
        const to = end ?? size;
        const buffer = new Uint8Array(Math.max(0, to - start));
        let read = 0;
        while (read < buffer.length) {
          const { bytesRead } = await handle.read(buffer, read, buffer.length - read, start + read);
          if (bytesRead === 0) break;
          read += bytesRead;
        }
        return buffer.buffer;
      },
    },
    stream: () => createReadStream(path),
    close: () => handle.close(),
  };
}
