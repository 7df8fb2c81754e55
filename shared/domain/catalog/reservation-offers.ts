import type { DeploymentOption, Offer, OfferScope, Provider } from '../engine/shapes/model';
import type { ReservationFile } from './catalog-schema';
import { CatalogDataError, PROVIDER_TERM_HOURS } from './catalog-terms';
import { sizeInstance } from './instance-units';
import { definedEntries, offerIdentity, splitEffectiveRate, TERM_LABELS } from './offer-pricing';

/** One instance type the catalog prices on demand, in one region, OS and tenancy. */
export interface PricedInstance {
  readonly provider: Provider;
  /** Provider service name, as a usage stream carries it (`AmazonEC2`, `Virtual Machines`). */
  readonly service: string;
  readonly region: string;
  readonly instanceType: string;
  /** The group size-flexible commitments cover: `m5`, `db.r5`, `Dsv5`, `n2-standard`. */
  readonly family: string;
  /** Units one instance counts for in its family: AWS normalization units, Azure flexibility ratios, GCP vCPUs. */
  readonly units: number;
  readonly operatingSystem: string;
  readonly tenancy: string;
  /** RDS Multi-AZ prices only (absent: Single-AZ). */
  readonly deploymentOption?: DeploymentOption;
  /** On-demand price per instance-hour. */
  readonly ondemandPrice: number;
  readonly source: string;
  readonly illustrative: boolean;
}

/** Units of an instance type the schema has already checked. */
function unitsOf(provider: Provider, instanceType: string): number {
  const sized = sizeInstance(provider, instanceType);
  if (!sized) throw new CatalogDataError(`unknown ${provider} instance type ${instanceType}`);
  return sized.units;
}

/**
 * The on-demand prices and reservation offers of one validated file. Prices are given for the
 * family's reference size and scale linearly with units (AWS prices scale with the normalization
 * factor within a family; Azure prices with the flexibility ratio within a group; GCP with vCPUs).
 */
export function reservationCatalog(file: ReservationFile): { instances: PricedInstance[]; offers: Offer[] } {
  const instances: PricedInstance[] = [];
  const offers: Offer[] = [];
  const { provider } = file;
  for (const family of file.families) {
    const referenceUnits = unitsOf(provider, family.priceReference);
    for (const prices of family.prices) {
      const source = file.sources[prices.source];
      const productDescription = file.productDescriptions[prices.operatingSystem];
      if (!source || productDescription === undefined) {
        throw new CatalogDataError(`unknown source or OS in ${family.family} ${prices.region} prices`);
      }
      const { region, operatingSystem, tenancy } = prices;
      for (const instanceType of family.instanceTypes) {
        const units = unitsOf(provider, instanceType);
        instances.push({
          provider,
          service: file.service,
          region,
          instanceType,
          family: family.family,
          units,
          operatingSystem,
          tenancy,
          ondemandPrice: (prices.ondemand * units) / referenceUnits,
          source: source.description,
          illustrative: source.illustrative,
        });
      }
      if (!prices.reserved || !prices.reservedScope) continue;
      // Size-flexible offers are priced per unit; exact offers per instance of their size.
      const scopes: { scope: OfferScope; scopeParts: string[]; label: string; units: number }[] =
        prices.reservedScope.kind === 'family'
          ? [
              {
                scope: { kind: 'family', region, family: family.family, operatingSystem, tenancy },
                scopeParts: ['family', region, family.family, operatingSystem, tenancy],
                label: `${family.family} (size-flexible)`,
                units: 1,
              },
            ]
          : (prices.reservedScope.instanceTypes ?? family.instanceTypes).map((instanceType) => ({
              scope: { kind: 'instance', region, instanceType, operatingSystem, tenancy },
              scopeParts: ['instance', region, instanceType, operatingSystem, tenancy],
              label: instanceType,
              units: unitsOf(provider, instanceType),
            }));
      for (const [contractType, byTerm] of definedEntries(prices.reserved)) {
        const product = file.products[contractType];
        if (!product) throw new CatalogDataError(`no product named for ${contractType}`);
        for (const [term, byPayment] of definedEntries(byTerm)) {
          const termHours = PROVIDER_TERM_HOURS[term];
          for (const [paymentOption, effectiveRate] of definedEntries(byPayment)) {
            for (const { scope, scopeParts, label, units } of scopes) {
              const rate = (effectiveRate * units) / referenceUnits;
              const { id, providerOfferingId } = offerIdentity(
                provider,
                contractType,
                term,
                paymentOption,
                scopeParts,
              );
              const { upfront, recurring } = splitEffectiveRate(rate, paymentOption, termHours);
              offers.push({
                id,
                provider,
                contractType,
                term,
                paymentOption,
                scope,
                termHours,
                lockinHours: termHours,
                upfront,
                recurring,
                feeRate: 0,
                providerOfferingId,
                displayName: `${product.name}, ${label}, ${productDescription}, ${region}, ${TERM_LABELS[term]}, ${paymentOption}`,
                leasedDisplayName: '',
                productDescription,
                offeringClass: product.offeringClass,
                planType: '',
                source: source.description,
                illustrative: source.illustrative,
              });
            }
          }
        }
      }
    }
  }
  return { instances, offers };
}
