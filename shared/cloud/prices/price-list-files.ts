import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, normalize } from 'node:path';
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import type { PriceListFiles } from '../../app/ports/catalog';

/**
 * The providers' price list files (docs/catalog.md, Refresh): from a directory laid out as the
 * providers serve them, or from the public endpoints (no credentials). Offer files are read in
 * their CSV form and parsed as they stream in; nothing holds a whole offer file.
 */

/** The public AWS Price List bulk host and the Azure Retail Prices API. */
export const AWS_PRICE_LIST_ORIGIN = 'https://pricing.us-east-1.amazonaws.com';
export const AZURE_RETAIL_PRICES_URL = 'https://prices.azure.com/api/retail/prices';

/**
 * What a read of the public endpoints covers unless told otherwise (`admin refresh-catalog --live`,
 * the deployed refresh): the bundled catalog's regions, since each AWS region's EC2 file is
 * hundreds of megabytes.
 */
export const LIVE_DEFAULT_REGIONS: readonly string[] = [
  'us-east-1',
  'us-west-2',
  'eu-west-1',
  'eastus',
  'westeurope',
];

async function* csvOf(stream: NodeJS.ReadableStream): AsyncIterable<readonly string[]> {
  // Price list CSV: every field quoted, LF records; a record may have fewer fields than the header.
  const parser = stream.pipe(parse({ bom: true, relax_column_count: true, skip_empty_lines: true }));
  for await (const record of parser) yield record as string[];
}

/** A directory mirroring the AWS bulk API paths, with the Azure pages as `azure/retail-prices/*.json`. */
export function directoryPriceListFiles(dir: string): PriceListFiles {
  const at = (path: string) => {
    const relative = normalize(path).replace(/^([/\\])+/, '');
    if (relative.startsWith('..')) throw new RangeError(`price list path ${path} leaves ${dir}`);
    return join(dir, relative);
  };
  return {
    origin: `dir ${dir}`,
    async json(path) {
      try {
        return JSON.parse(await readFile(at(path), 'utf8'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
    },
    csvRecords: (path) => csvOf(createReadStream(at(path))),
    async *azurePages() {
      const pagesDir = join(dir, 'azure', 'retail-prices');
      let names: string[];
      try {
        names = (await readdir(pagesDir)).filter((name) => name.endsWith('.json'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      // Pages in the order the API gave them: `page-2.json` before `page-10.json`.
      names.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
      for (const name of names) {
        yield {
          name: `azure/retail-prices/${name}`,
          json: JSON.parse(await readFile(join(pagesDir, name), 'utf8')),
        };
      }
    },
  };
}

export interface HttpPriceListOrigins {
  readonly aws: string;
  readonly azure: string;
  /** The fetch to use (tests give none: the global one). */
  readonly fetch?: typeof fetch;
}

/**
 * The public endpoints. Azure pages are asked for the regions named (`armRegionName eq ...`) and
 * followed through `NextPageLink`, whose path and query are fetched from the configured origin
 * (the API's own links name `prices.azure.com:443`; a test server serves the same pages).
 */
export function httpPriceListFiles(origins: HttpPriceListOrigins): PriceListFiles {
  const get = origins.fetch ?? fetch;
  async function fetchOk(url: string): Promise<Response> {
    const response = await get(url);
    if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
    return response;
  }
  return {
    origin: `live ${origins.aws} ${origins.azure}`,
    async json(path) {
      const response = await get(`${origins.aws}${path}`);
      if (response.status === 404 || response.status === 403) return undefined;
      if (!response.ok) throw new Error(`GET ${origins.aws}${path}: HTTP ${response.status}`);
      return response.json();
    },
    async *csvRecords(path) {
      const response = await fetchOk(`${origins.aws}${path}`);
      if (!response.body) throw new Error(`GET ${origins.aws}${path}: no body`);
      yield* csvOf(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream));
    },
    async *azurePages(regions) {
      const filter = [
        "serviceName eq 'Virtual Machines'",
        ...(regions && regions.length > 0
          ? [`(${regions.map((region) => `armRegionName eq '${region}'`).join(' or ')})`]
          : []),
      ].join(' and ');
      let url: string | null = `${origins.azure}?$filter=${encodeURIComponent(filter)}`;
      for (let page = 1; url; page++) {
        const json = (await (await fetchOk(url)).json()) as { NextPageLink?: unknown };
        yield { name: `page ${page}`, json };
        const next =
          typeof json.NextPageLink === 'string' && json.NextPageLink !== '' ? json.NextPageLink : null;
        url = next ? onOrigin(next, origins.azure) : null;
      }
    },
  };
}

/** The link's path and query on the configured API URL's origin. */
function onOrigin(link: string, apiUrl: string): string {
  const target = new URL(link);
  const origin = new URL(apiUrl);
  return `${origin.origin}${target.pathname}${target.search}`;
}
