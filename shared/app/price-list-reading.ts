import { type AwsOfferFile, createAwsOfferFileReader } from '../domain/catalog/aws-offer-file';
import {
  csvPathOf,
  type RegionFile,
  readOfferRegionIndex,
  readSavingsPlanFile,
  readSavingsPlanRegionIndex,
} from '../domain/catalog/aws-savings-plan-file';
import { createAzureRetailPricesReader } from '../domain/catalog/azure-retail-prices';
import { CatalogDataError } from '../domain/catalog/catalog-terms';
import type { RegionPriceList } from '../domain/catalog/price-list';
import { awsRegionPriceList, azureRegionPriceList } from '../domain/catalog/provider-price-lists';
import type { Provider } from '../domain/engine/shapes/model';
import type { PriceListFiles } from './ports/catalog';

/** The region index files of the AWS bulk API (docs/catalog.md, AWS price list files). */
export const AWS_INDEX_PATHS = {
  AmazonEC2: '/offers/v1.0/aws/AmazonEC2/current/region_index.json',
  AmazonRDS: '/offers/v1.0/aws/AmazonRDS/current/region_index.json',
  AWSComputeSavingsPlan: '/savingsPlan/v1.0/aws/AWSComputeSavingsPlan/current/region_index.json',
} as const;

export interface PriceListReadOptions {
  readonly providers: readonly Provider[];
  /** Only these regions (either provider's names); absent: every region the lists name. */
  readonly regions?: readonly string[];
}

export type Progress = (message: string) => void;

/**
 * Reads the providers' price lists into one list per provider and region (the readers in
 * shared/domain/catalog/). A file that is not in its provider's format throws CatalogDataError
 * naming it; GCP has no price list reader (its bundled table stays, docs/catalog.md).
 */
export async function readPriceLists(
  files: PriceListFiles,
  options: PriceListReadOptions,
  progress: Progress,
): Promise<RegionPriceList[]> {
  const lists: RegionPriceList[] = [];
  if (options.providers.includes('aws')) lists.push(...(await readAws(files, options, progress)));
  if (options.providers.includes('azure')) lists.push(...(await readAzure(files, options, progress)));
  return lists;
}

const wanted = (options: PriceListReadOptions, region: string) =>
  !options.regions || options.regions.includes(region);

async function readAws(files: PriceListFiles, options: PriceListReadOptions, progress: Progress) {
  const ec2Index = await files.json(AWS_INDEX_PATHS.AmazonEC2);
  if (ec2Index === undefined) throw new CatalogDataError(`AWS price list: no ${AWS_INDEX_PATHS.AmazonEC2}`);
  const ec2Files = readOfferRegionIndex(ec2Index).filter((file) => wanted(options, file.regionCode));
  const rdsFiles = await optionalIndex(files, AWS_INDEX_PATHS.AmazonRDS, readOfferRegionIndex);
  const spFiles = await optionalIndex(
    files,
    AWS_INDEX_PATHS.AWSComputeSavingsPlan,
    readSavingsPlanRegionIndex,
  );
  const lists: RegionPriceList[] = [];
  for (const [index, ec2File] of ec2Files.entries()) {
    const region = ec2File.regionCode;
    progress(`aws ${region} (${index + 1}/${ec2Files.length}): AmazonEC2`);
    const ec2 = await readOfferFile(files, ec2File);
    const rdsFile = rdsFiles.get(region);
    if (rdsFile) progress(`aws ${region}: AmazonRDS`);
    const rds = rdsFile ? await readOfferFile(files, rdsFile) : undefined;
    const spFile = spFiles.get(region);
    if (spFile) progress(`aws ${region}: AWSComputeSavingsPlan`);
    const spJson = spFile ? await files.json(spFile.path) : undefined;
    const savingsPlans = spJson === undefined ? undefined : readSavingsPlanFile(spJson, ec2.instances);
    lists.push(awsRegionPriceList(region, ec2, rds, savingsPlans));
  }
  return lists;
}

async function optionalIndex(
  files: PriceListFiles,
  path: string,
  read: (json: unknown) => RegionFile[],
): Promise<Map<string, RegionFile>> {
  const json = await files.json(path);
  return new Map(json === undefined ? [] : read(json).map((file) => [file.regionCode, file]));
}

async function readOfferFile(files: PriceListFiles, file: RegionFile): Promise<AwsOfferFile> {
  const reader = createAwsOfferFileReader();
  const path = csvPathOf(file.path);
  let line = 0;
  try {
    for await (const record of files.csvRecords(path)) reader.record(record, ++line);
    return reader.result();
  } catch (error) {
    if (error instanceof CatalogDataError) throw new CatalogDataError(`${path}: ${error.message}`);
    throw error;
  }
}

async function readAzure(files: PriceListFiles, options: PriceListReadOptions, progress: Progress) {
  const reader = createAzureRetailPricesReader();
  let last: string | null = null;
  let pages = 0;
  for await (const { name, json } of files.azurePages(options.regions)) {
    const read = reader.page(json, name);
    last = read.nextPageLink;
    pages++;
    if (pages % 50 === 1) progress(`azure retail prices: ${name} (${read.items} items)`);
  }
  if (pages === 0) return [];
  // The API's last page has no NextPageLink: pages that end with one are a recording cut short.
  if (last !== null)
    throw new CatalogDataError(
      `Azure Retail Prices: the last page read still names a NextPageLink (${last})`,
    );
  return reader
    .regions()
    .filter((region) => wanted(options, region))
    .map((region) => azureRegionPriceList(region, reader.result(region)));
}
