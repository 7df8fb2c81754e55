/**
 * Export files over the bounds of docs/usage-sync.md (shared/domain/usage/exports/export-bounds.ts),
 * generated small on disk: what repeats compresses to almost nothing (Parquet's dictionary and RLE
 * encodings, gzip), so that a file of a million rows or hundreds of megabytes of text is a few KB.
 */
import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { cur2Header, cur2Row } from '../../local/demo/cur2-parquet';
import { fleetLineItems } from './export-files';

/**
 * CUR 2.0 Parquet of `rows` identical usage rows in ONE row group, with the columns that name the
 * format (line item type, usage start, usage amount): the reader takes it for CUR 2.0.
 */
export function oneRowGroupCur2Parquet(rows: number): Uint8Array {
  const start = new Date('2026-06-01T00:00:00Z');
  return new Uint8Array(
    parquetWriteBuffer({
      columnData: [
        { name: 'line_item_line_item_type', data: new Array<string>(rows).fill('Usage'), type: 'STRING' },
        { name: 'line_item_usage_start_date', data: new Array<Date>(rows).fill(start), type: 'TIMESTAMP' },
        { name: 'line_item_usage_amount', data: new Float64Array(rows).fill(1), type: 'DOUBLE' },
      ],
      rowGroupSize: rows,
    }),
  );
}

/** The text of a CUR 2.0 CSV export: its header and `hours` hours of the fleet's lines. */
export function cur2CsvText(hours: number): string {
  const items = fleetLineItems('2026-06-01T00:00:00Z', hours);
  const rows = items.map((item, index) => cur2Row(item, index));
  const quote = (field: string | number) => `"${String(field).replace(/"/g, '""')}"`;
  return `${[cur2Header, ...rows].map((row) => row.map(quote).join(',')).join('\n')}\n`;
}

/**
 * `copies` gzip members of `member`, one after another: gunzip reads them as one stream (RFC 1952,
 * a gzip file may hold several members), so the text is `member` `copies` times while the file
 * holds its compressed bytes `copies` times.
 */
export function repeatedGzip(member: string | Uint8Array, copies: number): Uint8Array {
  const one = gzipSync(member, { level: 9 });
  const file = new Uint8Array(one.length * copies);
  for (let copy = 0; copy < copies; copy++) file.set(one, copy * one.length);
  return file;
}

const MiB = 1024 * 1024;

/**
 * A gzip CUR 2.0 CSV whose second record's resource id is one quoted field of `fieldMiB` MiB of
 * `a` (the file: 300 MiB in some 300 KB), then a record that closes it.
 */
export function enormousFieldGzipCsv(fieldMiB: number): Uint8Array {
  const header = `${cur2Header.join(',')}\n`;
  const opening = `line-0,Usage,2026-06-01T00:00:00Z,2026-06-01T01:00:00Z,AmazonEC2,BoxUsage,RunInstances,"`;
  const filler = repeatedGzip('a'.repeat(MiB), fieldMiB);
  const head = gzipSync(header + opening);
  const tail = gzipSync(`",123456789012,1,1,us-east-1,m5.large,1,{}\n`);
  const file = new Uint8Array(head.length + filler.length + tail.length);
  file.set(head, 0);
  file.set(filler, head.length);
  file.set(tail, head.length + filler.length);
  return file;
}

/**
 * A gzip bomb: a real CUR 2.0 CSV header and a day of the fleet's lines, then one of its records
 * again and again, `textMiB` MiB in all (about 1 KB on disk per MiB of text).
 */
export function gzipBombCsv(textMiB: number): Uint8Array {
  const text = cur2CsvText(24);
  const lines = text.split('\n');
  const record = `${lines[1]}\n`;
  const records = record.repeat(Math.floor(MiB / record.length));
  const head = gzipSync(text);
  const rest = repeatedGzip(records, textMiB);
  const file = new Uint8Array(head.length + rest.length);
  file.set(head, 0);
  file.set(rest, head.length);
  return file;
}

/** A CSV line of `fields` empty fields after a CUR 2.0 header: delimiters only. */
export function manyFieldsCsv(fields: number): Uint8Array {
  return gzipSync(`${cur2Header.join(',')}\n${','.repeat(fields - 1)}\n`);
}

/** A Data Exports manifest naming `files` data files of the period under `folder`, padded to at least `padBytes`. */
export function dataExportsManifest(bucket: string, folder: string, files: number, padBytes = 0): string {
  const dataFiles = Array.from(
    { length: files },
    (_, index) => `s3://${bucket}/${folder}/part-${String(index).padStart(5, '0')}.parquet`,
  );
  return JSON.stringify({ dataFiles, padding: 'x'.repeat(padBytes) });
}
