import { parseXML } from '@aws-sdk/xml-builder';
import { ProviderError } from './provider-failure';
import { type AwsHttpAnswer, type SignedServiceOptions, signedAwsCalls } from './signed-aws-calls';

/**
 * The one S3 call the AWS checks make: `ListObjectsV2` on the export's bucket and prefix, a GET in
 * S3's REST-XML protocol signed with SigV4 by the SDK's own signer and sent by its own HTTP handler
 * (signed-aws-calls.ts), its answer read by the SDK's own XML parser.
 *
 * Why not `@aws-sdk/client-s3`: for this one read of a bucket whose region the export names, the
 * client brings its endpoint rules, checksum, S3 Express and XML-serialization middleware, with
 * which the verify function's bundle misses the cold-start targets (docs/benchmarks.md, Cold start). What it would add here and this call does not do: access points, FIPS and dual-stack
 * endpoints, other partitions (the role is assumed in the `aws` partition, so an export's bucket is
 * in it), and following a region redirect, which the client does not do by default either.
 */

export interface S3ObjectListing {
  /** The keys of the first page of objects under the prefix; S3's errors thrown with their code as `name`. */
  listObjectsV2(input: { bucket: string; prefix: string; maxKeys: number }): Promise<{ keys: string[] }>;
}

/** `region` is the bucket's (the export names it); a given `endpoint` is addressed path-style. */
export type S3ObjectListingOptions = SignedServiceOptions;

/**
 * Bucket names that can be a host name's first label under TLS: no dots (they would not match
 * S3's certificate), lower case, digits and hyphens. Others are addressed path-style, as the SDK does.
 */
const virtualHostable = /^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/;

/** The bucket's URL: virtual-hosted where its name allows, else path-style; always path-style on a given endpoint. */
export function s3BucketUrl(bucket: string, region: string, endpoint?: string): URL {
  const bucketPath = encodeURIComponent(bucket);
  if (endpoint) return new URL(`${endpoint.replace(/\/$/, '')}/${bucketPath}`);
  if (virtualHostable.test(bucket)) return new URL(`https://${bucket}.s3.${region}.amazonaws.com/`);
  return new URL(`https://s3.${region}.amazonaws.com/${bucketPath}`);
}

export function s3ObjectListing(options: S3ObjectListingOptions): S3ObjectListing {
  const send = signedAwsCalls({ ...options, signingName: 's3', s3: true }, s3ErrorOf);

  return {
    async listObjectsV2({ bucket, prefix, maxKeys }) {
      const url = s3BucketUrl(bucket, options.region, options.endpoint);
      url.searchParams.set('list-type', '2');
      url.searchParams.set('prefix', prefix);
      url.searchParams.set('max-keys', String(maxKeys));
      const listed = parseXML(await send({ method: 'GET', url })) as {
        ListBucketResult?: { Contents?: ListedObject | ListedObject[] | '' };
      };
      const contents = listed.ListBucketResult?.Contents;
      const objects = Array.isArray(contents) ? contents : contents ? [contents] : [];
      return {
        keys: objects.flatMap((object) => (typeof object === 'object' && object.Key ? [object.Key] : [])),
      };
    },
  };
}

interface ListedObject {
  readonly Key?: string;
}

/** S3 answers an error as `<Error><Code>…</Code><Message>…</Message></Error>`; a body without one is named by its status. */
export function s3ErrorOf({ status, text }: AwsHttpAnswer): ProviderError {
  let error: { Code?: unknown; Message?: unknown } = {};
  try {
    const parsed = text ? (parseXML(text) as { Error?: typeof error }) : {};
    error = parsed.Error ?? {};
  } catch {
    // A body that is not XML (a proxy's page) still yields an error named by its status.
  }
  const code =
    typeof error.Code === 'string' && error.Code
      ? error.Code
      : status >= 500
        ? 'InternalError'
        : `Http${status}`;
  const message =
    typeof error.Message === 'string' && error.Message ? error.Message : `${code} (HTTP ${status})`;
  return new ProviderError(code, message);
}
