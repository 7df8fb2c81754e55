import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../support/admin-cli';
import { PRICE_FIXTURES_DIR } from '../support/price-list-fixtures';
import { type PriceListServer, startPriceListServer } from '../support/price-list-server';

/**
 * `admin refresh-catalog` (docs/catalog.md, Refresh) on the local store: the recorded price lists
 * read from a directory laid out as the providers serve them, and the same files served over HTTP
 * as the public endpoints serve them (`--live` with the origins pointed at a local server).
 */

let localDir: string;
let server: PriceListServer;

beforeAll(async () => {
  localDir = await mkdtemp(join(tmpdir(), 'admin-refresh-catalog-'));
  server = await startPriceListServer(PRICE_FIXTURES_DIR, ['page-1.json', 'page-2.json']);
});

afterAll(async () => {
  await server.close();
  await rm(localDir, { recursive: true, force: true });
});

describe('admin refresh-catalog', () => {
  it('reads a directory of price lists into the current catalog and prints what it read', async () => {
    const run = await runAdmin(localDir, ['refresh-catalog', '--source', PRICE_FIXTURES_DIR]);
    expect(run.exitCode).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer).toMatchObject({
      outcome: 'refreshed',
      providers: ['aws', 'azure'],
      regions: [
        { provider: 'aws', region: 'us-east-1', published: { AmazonEC2: '2024-11-18T21:05:38Z' } },
        { provider: 'aws', region: 'eu-west-2' },
        { provider: 'azure', region: 'eastus', published: { 'retail-prices': '2024-10-01T00:00:00Z' } },
        { provider: 'azure', region: 'westeurope' },
      ],
    });
    expect(answer.offers.instances).toBeGreaterThan(0);
    expect(answer.instance_types).toBeGreaterThan(10);
    expect(run.stderr).toContain('aws us-east-1 (1/2): AmazonEC2');
  });

  it('reads the same lists over HTTP as the public endpoints serve them, following NextPageLink', async () => {
    const run = await runAdmin(localDir, [
      'refresh-catalog',
      '--live',
      '--regions',
      'us-east-1,eastus,westeurope',
      '--aws-origin',
      server.url,
      '--azure-url',
      `${server.url}/api/retail/prices`,
    ]);
    expect(run.exitCode).toBe(0);
    const answer = JSON.parse(run.stdout);
    expect(answer.regions.map((r: { region: string }) => r.region)).toEqual([
      'us-east-1',
      'eastus',
      'westeurope',
    ]);
    // Nothing moved since the directory's refresh: the same prices.
    expect(answer.prices_moved).toEqual([]);
    expect(server.requests).toContain('/offers/v1.0/aws/AmazonEC2/20241118210538/us-east-1/index.csv');
    expect(server.requests.filter((path) => path.startsWith('/api/retail/prices'))).toHaveLength(2);
    expect(server.requests.find((path) => path.startsWith('/api/retail/prices'))).toContain(
      'armRegionName%20eq%20%27eastus%27',
    );
  });

  it('keeps the last good catalog and exits 1 when a source cannot be read', async () => {
    const run = await runAdmin(localDir, ['refresh-catalog', '--source', join(localDir, 'nothing-here')]);
    expect(run.exitCode).toBe(1);
    expect(JSON.parse(run.stdout)).toMatchObject({ outcome: 'kept' });
    expect(run.stderr).toMatch(/kept the last good catalog: the price lists could not be read/);
  });

  it('refuses to run without a source', async () => {
    const run = await runAdmin(localDir, ['refresh-catalog']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('give one of --source <dir> or --live');
  });
});
