import {
  afterAll,
  afterEach,
  beforeAll,
  beforeEach,
  describe,
  expect,
  it,
  type MockInstance,
  vi,
} from 'vitest';
import { createCatalogRefreshHandler } from '../../../functions/catalog-refresh/catalog-refresh-handler';
import { httpPriceListFiles } from '../../../shared/cloud/prices/price-list-files';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { createStore } from '../../../shared/store/store';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { PRICE_FIXTURES_DIR } from '../../support/price-list-fixtures';
import { type PriceListServer, startPriceListServer } from '../../support/price-list-server';
import { type PriceListCopy, priceListsWithOnDemandDivided } from '../../support/suspicious-price-lists';
import { lambdaContext } from '../../unit/http/proxy-event';

/**
 * The deployed catalog refresh (docs/catalog.md, Deployed refresh) run as Lambda runs it: its
 * handler over dynalite, reading the recorded price lists over HTTP as the public endpoints serve
 * them (the AWS bulk paths, the Azure Retail Prices API with NextPageLink paging), through the
 * same readers as `admin refresh-catalog`. What it logs and the metric it emits (EMF on stdout)
 * are read back from the output.
 */

const azurePages = ['page-1.json', 'page-2.json'];
const regions = ['us-east-1', 'eu-west-2', 'eastus', 'westeurope'];

let table: TestTable;
let recorded: PriceListServer;
let fallen: PriceListCopy;
let fallenServer: PriceListServer;

beforeAll(async () => {
  table = await startTestTable();
  recorded = await startPriceListServer(PRICE_FIXTURES_DIR, azurePages);
  fallen = await priceListsWithOnDemandDivided('eu-west-2', 10);
  fallenServer = await startPriceListServer(fallen.dir, azurePages);
});

afterAll(async () => {
  await Promise.all([recorded.close(), fallenServer.close()]);
  await fallen.remove();
  await table.close();
});

let stdout: MockInstance<typeof process.stdout.write>;
let stderr: MockInstance<typeof process.stderr.write>;

beforeEach(() => {
  vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'commitment-planning');
  stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
  stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
});

afterEach(() => {
  stdout.mockRestore();
  stderr.mockRestore();
  vi.unstubAllEnvs();
});

/** The JSON lines written (Lambda keeps both streams): the logger's (WARN on stderr) and the metrics'. */
function outputLines(): Record<string, unknown>[] {
  return [...stdout.mock.calls, ...stderr.mock.calls]
    .map(([chunk]) => String(chunk))
    .join('\n')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

interface EmfLine {
  readonly _aws: {
    readonly CloudWatchMetrics: readonly {
      readonly Namespace: string;
      readonly Dimensions: readonly (readonly string[])[];
      readonly Metrics: readonly { Name: string; Unit: string }[];
    }[];
  };
  readonly [key: string]: unknown;
}

function metricLines(): EmfLine[] {
  return outputLines().filter((line): line is EmfLine => '_aws' in line);
}

/** The deployed handler on the test table, reading the price lists `server` serves. */
function refreshHandlerOn(server: PriceListServer, tableName = table.tableName) {
  return createCatalogRefreshHandler(() => ({
    ctx: { repos: createStore({ client: table.client, tableName }), clock: systemClock, ids: randomIds },
    priceLists: httpPriceListFiles({ aws: server.url, azure: `${server.url}/api/retail/prices` }),
    regions,
  }));
}

describe('the deployed catalog refresh', () => {
  it('reads the public price lists over HTTP, stores them as the current catalog and reports 0 kept', async () => {
    // Act
    const answer = await refreshHandlerOn(recorded)({}, lambdaContext());

    // Assess: the current version is stored, with the listed rates (t2.micro Linux in us-east-1).
    expect(answer.outcome).toBe('refreshed');
    expect(answer.regions.map((r) => `${r.provider} ${r.region}`)).toEqual([
      'aws us-east-1',
      'aws eu-west-2',
      'azure eastus',
      'azure westeurope',
    ]);
    const current = await table.store.catalog.current();
    expect(current?.version).toBe(answer.catalog_version);
    const stored = await table.store.catalog.loadRegion(answer.catalog_version, 'aws', 'us-east-1');
    expect(stored?.instances.find((i) => i.instanceType === 't2.micro')?.ondemand).toBe(0.0116);
    expect(recorded.requests).toContain('/offers/v1.0/aws/AmazonEC2/20241118210538/eu-west-2/index.csv');
    expect(recorded.requests.filter((path) => path.startsWith('/api/retail/prices'))).toHaveLength(2);

    // The metric, in the namespace and with the dimension the alarm watches (catalog-refresh.test.ts).
    const [metric] = metricLines();
    expect(metric?._aws.CloudWatchMetrics).toEqual([
      {
        Namespace: 'CommitmentPlanning',
        Dimensions: [['service']],
        Metrics: [{ Name: 'CatalogRefreshKeptLastGood', Unit: 'Count' }],
      },
    ]);
    expect(metric).toMatchObject({ service: 'commitment-planning', CatalogRefreshKeptLastGood: 0 });
    expect(outputLines().find((line) => line.message === 'catalog refreshed')).toMatchObject({
      level: 'INFO',
      catalog_version: answer.catalog_version,
    });
  });

  it('keeps the last good catalog when a region’s prices fell by more than half, and says why in the metric and the log', async () => {
    // Prepare
    const before = await table.store.catalog.current();
    expect(before).toBeDefined();

    // Act
    const answer = await refreshHandlerOn(fallenServer)({}, lambdaContext());

    // Assess
    const reasons = ['aws eu-west-2: on-demand prices fell by 90% against the current catalog'];
    expect(answer).toMatchObject({ outcome: 'kept', reasons, catalog_version: before?.version });
    expect(await table.store.catalog.current()).toEqual(before);
    expect(metricLines().map((line) => line.CatalogRefreshKeptLastGood)).toEqual([1]);
    expect(
      outputLines().find((line) => line.message === 'catalog refresh kept the last good catalog'),
    ).toMatchObject({ level: 'WARN', reasons, catalog_version: before?.version });
  });

  it('fails the invocation, for Lambda to retry and then dead-letter, when the catalog cannot be stored', async () => {
    // Prepare
    const before = await table.store.catalog.current();

    // Act / Assess: a table that does not exist answers ResourceNotFoundException.
    await expect(refreshHandlerOn(recorded, 'no-such-table')({}, lambdaContext())).rejects.toThrow(
      /non-existent table|not found/i,
    );
    expect(metricLines().filter((line) => 'CatalogRefreshKeptLastGood' in line)).toEqual([]);
    expect(await table.store.catalog.current()).toEqual(before);
  });
});
