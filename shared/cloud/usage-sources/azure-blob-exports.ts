import { parseXML } from '@aws-sdk/xml-builder';
import type { ExportSource } from '../../app/ports/usage-sync';
import { bareEtag, hasDotSegment, type ListedObject } from '../../domain/usage-sources/export-files';
import { ProviderError } from '../verifiers/provider-failure';
import { readTextAtMost } from './read-at-most';

/**
 * The Blob Storage reads of an Azure usage sync, on the Blob service's REST API with a token of
 * the service's app (`Authorization: Bearer`, which needs `x-ms-version` 2017-11-09 or later):
 * List Blobs followed marker by marker, Get Blob whole (a manifest) or by range (a Parquet file's
 * footer and row groups). Every read of a data file names the ETag the listing answered
 * (`If-Match`): a file written again meanwhile fails the read with `ConditionNotMet` instead of
 * mixing two runs. Errors become ProviderErrors named by the service's `x-ms-error-code`.
 */
export interface AzureBlobExports {
  /** Every blob of the container under the prefix, in name order. */
  listAll(prefix: string): Promise<ListedObject[]>;
  /** One blob's text (a manifest): at most its first `maxBytes` + 1 bytes. */
  getText(name: string, maxBytes: number): Promise<string>;
  /** One blob as the export readers take it. */
  open(blob: { readonly key: string; readonly etag: string; readonly size: number }): ExportSource;
}

export interface AzureBlobExportsOptions {
  /** `https://<account>.blob.core.windows.net` (tests: a loopback server answering as Blob Storage does). */
  readonly accountUrl: string;
  readonly container: string;
  /** A Blob Storage token of the service's app in the customer's tenant. */
  readonly token: () => Promise<string>;
}

/** The service version the requests are made to. */
const blobServiceVersion = '2023-11-03';
/** Pages of List Blobs read before giving up: 5,000 blobs each. */
const maxListPages = 1000;
const requestTimeoutMs = 60_000;

interface ListedBlob {
  readonly Name?: string;
  readonly Properties?: {
    readonly 'Last-Modified'?: string;
    readonly Etag?: string;
    readonly 'Content-Length'?: string;
  };
}

const asList = <T>(value: T | T[] | '' | undefined): T[] =>
  Array.isArray(value) ? value : value ? [value] : [];

/** The blob's URL: each segment of its name escaped once. */
function blobUrl(accountUrl: string, container: string, name: string): URL {
  if (hasDotSegment(name)) {
    throw new ProviderError('InvalidBlobName', `blob ${name} has a . or .. segment; it is not read`);
  }
  const path = [container, ...name.split('/')].map(encodeURIComponent).join('/');
  return new URL(`${accountUrl.replace(/\/$/, '')}/${path}`);
}

async function blobError(response: Response): Promise<ProviderError> {
  const text = await response.text().catch(() => '');
  const message = /<Message>([\s\S]*?)<\/Message>/.exec(text)?.[1]?.split('\n')[0];
  const code =
    response.headers.get('x-ms-error-code') ??
    /<Code>([^<]*)<\/Code>/.exec(text)?.[1] ??
    String(response.status);
  return new ProviderError(code, message ?? `Blob Storage answered ${response.status}`);
}

export function azureBlobExports(options: AzureBlobExportsOptions): AzureBlobExports {
  const send = async (url: URL, headers: Record<string, string> = {}): Promise<Response> => {
    const response = await fetch(url, {
      headers: {
        authorization: `Bearer ${await options.token()}`,
        'x-ms-version': blobServiceVersion,
        ...headers,
      },
      signal: AbortSignal.timeout(requestTimeoutMs),
    });
    if (!response.ok) throw await blobError(response);
    return response;
  };

  return {
    async listAll(prefix) {
      const blobs: ListedObject[] = [];
      let marker = '';
      for (let page = 0; page < maxListPages; page++) {
        const url = blobUrl(options.accountUrl, options.container, '');
        url.pathname = url.pathname.replace(/\/$/, '');
        url.searchParams.set('restype', 'container');
        url.searchParams.set('comp', 'list');
        url.searchParams.set('prefix', prefix);
        if (marker) url.searchParams.set('marker', marker);
        const listed = parseXML(await (await send(url)).text()) as {
          EnumerationResults?: { Blobs?: { Blob?: ListedBlob | ListedBlob[] } | ''; NextMarker?: string };
        };
        const result = listed.EnumerationResults ?? {};
        const found = typeof result.Blobs === 'object' ? asList(result.Blobs.Blob) : [];
        for (const blob of found) {
          if (!blob.Name) continue;
          const modified = Date.parse(blob.Properties?.['Last-Modified'] ?? '');
          blobs.push({
            key: blob.Name,
            etag: bareEtag(blob.Properties?.Etag ?? ''),
            size: Number(blob.Properties?.['Content-Length'] ?? 0),
            lastModified: Number.isFinite(modified) ? new Date(modified).toISOString() : '',
          });
        }
        marker = typeof result.NextMarker === 'string' ? result.NextMarker : '';
        if (!marker) return blobs;
      }
      throw new Error(
        `container ${options.container} holds more than ${maxListPages * 5000} blobs under ${prefix}`,
      );
    },

    async getText(name, maxBytes) {
      const answer = await send(blobUrl(options.accountUrl, options.container, name));
      if (!answer.body) return '';
      const body = answer.body as unknown as AsyncIterable<Uint8Array>;
      try {
        return await readTextAtMost(body, maxBytes);
      } finally {
        await answer.body.cancel().catch(() => undefined);
      }
    },

    open(blob) {
      const url = blobUrl(options.accountUrl, options.container, blob.key);
      const ifMatch = { 'if-match': `"${blob.etag}"` };
      return {
        random: {
          byteLength: blob.size,
          async slice(start: number, end?: number) {
            const last = Math.min(end ?? blob.size, blob.size) - 1;
            if (last < start) return new ArrayBuffer(0);
            const answer = await send(url, { ...ifMatch, 'x-ms-range': `bytes=${start}-${last}` });
            return answer.arrayBuffer();
          },
        },
        async *stream() {
          const answer = await send(url, ifMatch);
          if (!answer.body) return;
          for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) yield chunk;
        },
      };
    },
  };
}
