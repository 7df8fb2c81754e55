import type { RegionPriceList } from '../../domain/catalog/price-list';
import type { Provider } from '../../domain/engine/model';

/**
 * The providers' price list files, laid out as the providers serve them (docs/catalog.md, Refresh):
 * a directory mirroring the AWS bulk API paths and holding the Azure API's pages as
 * `azure/retail-prices/*.json`, or the public endpoints themselves.
 */
export interface PriceListFiles {
  /** Where the files come from, for the refresh's answer (`dir /path`, `live`). */
  readonly origin: string;
  /** A JSON file of the AWS price list host by its path (`/offers/v1.0/aws/...`); undefined when absent. */
  json(path: string): Promise<unknown>;
  /** The CSV records of an AWS offer file (its `.csv` path), one at a time, as they stream in. */
  csvRecords(path: string): AsyncIterable<readonly string[]>;
  /** The Azure Retail Prices API's pages for these regions, in order, each with a name for messages. */
  azurePages(
    regions: readonly string[] | undefined,
  ): AsyncIterable<{ readonly name: string; readonly json: unknown }>;
}

/** A stored catalog version: which regions it prices and from which lists (docs/catalog.md, Stored catalog). */
export interface CatalogVersion {
  /** e.g. `2026-11-28T21:00:00.000Z`: when the refresh that wrote it ran. */
  readonly version: string;
  readonly regions: readonly CatalogVersionRegion[];
}

export interface CatalogVersionRegion {
  readonly provider: Provider;
  readonly region: string;
  readonly source: string;
  readonly published: Readonly<Record<string, string>>;
  /** Offers-relevant size of the region: for the suspicious-refresh checks and the answer. */
  readonly instances: number;
  readonly reservations: number;
  readonly spendRates: number;
  /** The mean on-demand price of the region's instances: a refresh that halves it is suspicious. */
  readonly meanOndemand: number;
  /** Digest of the region's prices: a region whose digest changes has prices that moved. */
  readonly digest: string;
}

/** Where refreshed catalogs are kept: versions written whole, then `current` pointed at one. */
export interface CatalogStore {
  current(): Promise<CatalogVersion | undefined>;
  /** Stores one region's list under a version not yet current. */
  putRegion(version: string, list: RegionPriceList): Promise<void>;
  loadRegion(version: string, provider: Provider, region: string): Promise<RegionPriceList | undefined>;
  /** Makes `version` current; its regions must all be stored first. */
  setCurrent(version: CatalogVersion): Promise<void>;
}
