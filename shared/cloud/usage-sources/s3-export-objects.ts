import type { Readable } from 'node:stream';
import { parseXML } from '@aws-sdk/xml-builder';
import { streamCollector } from '@smithy/node-http-handler';
import type { ExportSource } from '../../app/ports/usage-sync';
import { bareEtag, hasDotSegment, type ListedObject } from '../../domain/usage-sources/export-files';
import { ProviderError } from '../verifiers/provider-failure';
import { s3BucketUrl, s3ErrorOf } from '../verifiers/s3-object-listing';
import { type SignedServiceOptions, signedAwsStreams } from '../verifiers/signed-aws-calls';
import { readTextAtMost } from './read-at-most';

/**
 * The S3 reads of a usage sync, made as the AWS checks make theirs (s3-object-listing.ts says why
 * without `@aws-sdk/client-s3`): `ListObjectsV2` followed page by page past 1,000 keys, and
 * `GetObject` whole (a manifest) or by byte range (a Parquet file's footer and row groups). Every
 * read of a data file names the ETag the listing answered (`If-Match`): a file delivered again
 * meanwhile fails the read with S3's `PreconditionFailed` instead of mixing two deliveries.
 */
export interface S3ExportObjects {
  /** Every object under the prefix, in key order. */
  listAll(bucket: string, prefix: string): Promise<ListedObject[]>;
  /** One object's text (a manifest): at most its first `maxBytes` + 1 bytes. */
  getText(bucket: string, key: string, maxBytes: number): Promise<string>;
  /** One object as the export readers take it. */
  open(
    bucket: string,
    object: { readonly key: string; readonly etag: string; readonly size: number },
  ): ExportSource;
}

/** Pages of ListObjectsV2 read before giving up: 1,000 keys each. */
const maxListPages = 1000;

interface ListedContents {
  readonly Key?: string;
  readonly ETag?: string;
  readonly Size?: string;
  readonly LastModified?: string;
}

const uriEncode = (segment: string) =>
  encodeURIComponent(segment).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export function s3ExportObjects(options: SignedServiceOptions): S3ExportObjects {
  const send = signedAwsStreams({ ...options, signingName: 's3', s3: true }, s3ErrorOf);
  const objectUrl = (bucket: string, key: string) => {
    if (hasDotSegment(key)) {
      throw new ProviderError('InvalidObjectKey', `object ${key} has a . or .. segment; it is not read`);
    }
    const url = s3BucketUrl(bucket, options.region, options.endpoint);
    // Each segment escaped once as SigV4's UriEncode does (all but A-Z a-z 0-9 - . _ ~): S3 signs the path as sent.
    url.pathname = `${url.pathname.replace(/\/$/, '')}/${key.split('/').map(uriEncode).join('/')}`;
    return url;
  };
  const text = async (body: Readable) => Buffer.from(await streamCollector(body)).toString('utf8');

  return {
    async listAll(bucket, prefix) {
      const objects: ListedObject[] = [];
      let token: string | undefined;
      for (let page = 0; page < maxListPages; page++) {
        const url = s3BucketUrl(bucket, options.region, options.endpoint);
        url.searchParams.set('list-type', '2');
        url.searchParams.set('prefix', prefix);
        if (token) url.searchParams.set('continuation-token', token);
        const answer = await send({ method: 'GET', url });
        const listed = parseXML(await text(answer.body)) as {
          ListBucketResult?: {
            Contents?: ListedContents | ListedContents[] | '';
            IsTruncated?: string;
            NextContinuationToken?: string;
          };
        };
        const result = listed.ListBucketResult ?? {};
        const contents = Array.isArray(result.Contents)
          ? result.Contents
          : result.Contents
            ? [result.Contents]
            : [];
        for (const entry of contents) {
          if (typeof entry !== 'object' || !entry.Key) continue;
          objects.push({
            key: entry.Key,
            etag: bareEtag(entry.ETag ?? ''),
            size: Number(entry.Size ?? 0),
            lastModified: entry.LastModified ?? '',
          });
        }
        token = result.IsTruncated === 'true' ? result.NextContinuationToken : undefined;
        if (!token) return objects;
      }
      throw new Error(`s3://${bucket}/${prefix} holds more than ${maxListPages * 1000} objects`);
    },

    async getText(bucket, key, maxBytes) {
      const answer = await send({ method: 'GET', url: objectUrl(bucket, key) });
      try {
        return await readTextAtMost(answer.body, maxBytes);
      } finally {
        answer.body.destroy();
      }
    },

    open(bucket, object) {
      const url = objectUrl(bucket, object.key);
      const ifMatch = { 'if-match': `"${object.etag}"` };
      return {
        random: {
          byteLength: object.size,
          async slice(start: number, end?: number) {
            const last = Math.min(end ?? object.size, object.size) - 1;
            if (last < start) return new ArrayBuffer(0);
            const answer = await send({
              method: 'GET',
              url,
              headers: { ...ifMatch, range: `bytes=${start}-${last}` },
            });
            const bytes = await streamCollector(answer.body);
            return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
          },
        },
        async *stream() {
          const answer = await send({ method: 'GET', url, headers: ifMatch });
          for await (const chunk of answer.body) yield chunk as Uint8Array;
        },
      };
    },
  };
}
