import { paysAzureLicense } from '../engine/portfolio/commitment-price';
import type { UsageStream } from '../engine/shapes/model';
import type { Catalog } from './catalog';

/**
 * The streams, each licensed Azure VM with its `computePrice`: the catalog's Linux on-demand price of
 * its size in its region, the part Azure reservations and the savings plan cover. A licensed VM the
 * catalog does not price keeps none, and the engine leaves it on demand. Other streams are returned
 * as they are (the same objects).
 */
export function withComputePrices(streams: readonly UsageStream[], catalog: Catalog): UsageStream[] {
  return streams.map((stream) => {
    if (!paysAzureLicense(stream) || stream.computePrice !== undefined) return stream;
    const computePrice = catalog.ondemandPrice({
      provider: 'azure',
      region: stream.region,
      instanceType: stream.instanceType,
      operatingSystem: 'Linux',
      tenancy: 'Shared',
    });
    return computePrice === undefined ? stream : { ...stream, computePrice };
  });
}
