import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

/**
 * A local HTTP server serving recorded price lists as the providers do (docs/catalog.md, Refresh):
 * the AWS bulk API's paths as files of `dir`, and the Azure Retail Prices API at
 * `/api/retail/prices`, whose `$skip` picks the recorded page that the previous page's
 * `NextPageLink` names (the first page without one). Counts the requests it answered.
 */
export interface PriceListServer {
  readonly url: string;
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startPriceListServer(
  dir: string,
  azurePages: readonly string[],
): Promise<PriceListServer> {
  const pages = await Promise.all(
    azurePages.map(async (name) => readFile(join(dir, 'azure', 'retail-prices', name), 'utf8')),
  );
  const bySkip = new Map<string | null, string>();
  let skip: string | null = null;
  for (const page of pages) {
    bySkip.set(skip, page);
    const next = (JSON.parse(page) as { NextPageLink: string | null }).NextPageLink;
    skip = next ? new URL(next).searchParams.get('$skip') : null;
  }
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push(`${url.pathname}${url.search}`);
    if (url.pathname === '/api/retail/prices') {
      const page = bySkip.get(url.searchParams.get('$skip'));
      response.writeHead(page ? 200 : 404, { 'content-type': 'application/json' }).end(page ?? '{}');
      return;
    }
    const path = normalize(url.pathname);
    if (path.includes('..')) {
      response.writeHead(400).end();
      return;
    }
    readFile(join(dir, path)).then(
      (body) => response.writeHead(200).end(body),
      () => response.writeHead(404).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
