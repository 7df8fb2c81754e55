/**
 * The first `maxBytes` + 1 bytes of a stream as UTF-8 text, and no more: a manifest is read whole
 * only when it is inside its bound (docs/usage-sync.md, Bounds), and one byte over is enough to
 * say it is not. The rest of the stream is left unread (the caller's loop ends, which closes it).
 */
export async function readTextAtMost(chunks: AsyncIterable<Uint8Array>, maxBytes: number): Promise<string> {
  const kept: Uint8Array[] = [];
  let bytes = 0;
  for await (const chunk of chunks) {
    const room = maxBytes + 1 - bytes;
    kept.push(chunk.length > room ? chunk.subarray(0, room) : chunk);
    bytes += Math.min(chunk.length, room);
    if (bytes > maxBytes) break;
  }
  return Buffer.concat(kept).toString('utf8');
}
