import type { RegionPriceList } from '../../domain/catalog/price-list';
import type { RegionSummary } from '../../domain/catalog/refresh-checks';
import type { Provider } from '../../domain/engine/shapes/model';

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
  /** e.g. `2026-11-28T21:00:00.000Z`: when the refresh that made it current ran. */
  readonly version: string;
  readonly regions: readonly CatalogVersionRegion[];
}

export interface CatalogVersionRegion extends RegionSummary {
  /** The version its list is stored under: a refresh of other regions keeps it where it was. */
  readonly storedIn: string;
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
