import { refreshCatalog } from '../../shared/app/catalog-refresh';
import {
  AWS_PRICE_LIST_ORIGIN,
  AZURE_RETAIL_PRICES_URL,
  directoryPriceListFiles,
  httpPriceListFiles,
  LIVE_DEFAULT_REGIONS,
} from '../../shared/cloud/prices/price-list-files';
import type { Provider } from '../../shared/domain/engine/shapes/model';
import { type AdminCommand, defineCommand, UsageError } from './admin-command';

/**
 * `admin refresh-catalog --source DIR | --live` (docs/catalog.md, Refresh): reads the providers'
 * price lists from a directory laid out as they serve them, or from their public endpoints, and
 * makes them the current catalog of the store (`.local/` for the local one). Progress goes to
 * stderr; the answer is one JSON line. A refresh that keeps the last good catalog exits 1.
 */
export const refreshCatalogCommand: AdminCommand = defineCommand({
  name: 'refresh-catalog',
  summary:
    "refresh the price catalog from the providers' own price lists: AWS Price List files and Azure Retail Prices pages (docs/catalog.md)",
  options: [
    {
      name: 'source',
      value: '<dir>',
      help: 'a directory mirroring the AWS bulk API paths (offers/v1.0/aws/..., savingsPlan/v1.0/aws/...) with the Azure pages in azure/retail-prices/*.json',
    },
    {
      name: 'live',
      help: 'read the public endpoints (pricing.us-east-1.amazonaws.com, prices.azure.com); no credentials',
    },
    {
      name: 'regions',
      value: '<r1,r2,...>',
      help: 'only these regions (AWS or Azure names); default: every region of --source; with --live, the bundled catalog regions',
    },
    {
      name: 'provider',
      value: '<provider>',
      choices: ['aws', 'azure'],
      help: 'aws or azure: one provider only (default both)',
    },
    {
      name: 'aws-origin',
      value: '<url>',
      help: `with --live: the AWS price list host (default ${AWS_PRICE_LIST_ORIGIN})`,
    },
    {
      name: 'azure-url',
      value: '<url>',
      help: `with --live: the Retail Prices API (default ${AZURE_RETAIL_PRICES_URL})`,
    },
  ],
  needs: ['store'],
  async run({ store }, { options }) {
    const source = options.source;
    const live = options.live === true;
    if ((typeof source === 'string') === live) throw new UsageError('give one of --source <dir> or --live');
    const files =
      typeof source === 'string'
        ? directoryPriceListFiles(source)
        : httpPriceListFiles({
            aws: typeof options['aws-origin'] === 'string' ? options['aws-origin'] : AWS_PRICE_LIST_ORIGIN,
            azure: typeof options['azure-url'] === 'string' ? options['azure-url'] : AZURE_RETAIL_PRICES_URL,
          });
    const regions =
      typeof options.regions === 'string'
        ? options.regions
            .split(',')
            .map((region) => region.trim())
            .filter(Boolean)
        : live
          ? LIVE_DEFAULT_REGIONS
          : undefined;
    const providers: Provider[] =
      typeof options.provider === 'string' ? [options.provider as Provider] : ['aws', 'azure'];
    const answer = await refreshCatalog(
      store.ctx,
      files,
      { providers, ...(regions ? { regions } : {}) },
      (message) => console.error(message),
    );
    if (answer.outcome === 'kept') {
      for (const reason of answer.reasons) console.error(`kept the last good catalog: ${reason}`);
      process.exitCode = 1;
    }
    return answer;
  },
});
