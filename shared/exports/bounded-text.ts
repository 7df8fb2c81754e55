import { Transform, type TransformCallback } from 'node:stream';
import { checkBound, type ExportBounds } from '../domain/usage/exports/export-bounds';

const LF = 0x0a;

/**
 * The text of a CSV export (gunzipped already) passed on unchanged while it stays inside the
 * bounds (docs/usage-sync.md, Bounds): at most `csvTextBytes` bytes in all, so that a gzip bomb
 * stops at the bound however far it would inflate, and no line longer than `csvRecordChars`,
 * so that a line of delimiters alone (which csv-parse's `max_record_size`, counting the fields'
 * characters, does not see) cannot make the parser hold millions of empty fields. The first chunk
 * over a bound fails the stream with an ExportBoundError; nothing of it is passed on.
 */
export function boundedText(bounds: ExportBounds): Transform {
  let bytes = 0;
  let line = 1;
  /** Bytes of the current line so far. */
  let lineBytes = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      try {
        bytes += chunk.length;
        checkBound(bounds, 'csvTextBytes', bytes, () => 'the file is longer once gunzipped');
        let from = 0;
        for (let at = chunk.indexOf(LF, from); at >= 0; at = chunk.indexOf(LF, from)) {
          lineBytes += at - from;
          checkBound(bounds, 'csvRecordChars', lineBytes, () => `line ${line} of the file is longer`);
          line += 1;
          lineBytes = 0;
          from = at + 1;
        }
        lineBytes += chunk.length - from;
        checkBound(bounds, 'csvRecordChars', lineBytes, () => `line ${line} of the file is longer`);
        done(null, chunk);
      } catch (error) {
        done(error as Error);
      }
    },
  });
}
