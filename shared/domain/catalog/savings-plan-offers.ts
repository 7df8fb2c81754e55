import type { Offer, PaymentOption, SpendRate } from '../engine/shapes/model';
import type { SavingsPlanFile } from './catalog-schema';
import { CatalogDataError, PROVIDER_TERM_HOURS, type ProviderTerm } from './catalog-terms';
import { definedEntries, offerIdentity, splitEffectiveRate, TERM_LABELS } from './offer-pricing';

type RateRow = SavingsPlanFile['rates'][number];

/**
 * Savings-plan offers of one validated file. The unit of a spend commitment is $1/h of
 * commitment at plan rates, so every payment option costs r = 1 per unit-hour; what differs is
 * when it is paid and how deep the discounts are. A plan bought per region and family (EC2
 * Instance Savings Plans) gives one offer per region and family; otherwise one offer covers
 * every row of the plan type.
 */
export function savingsPlanOffers(file: SavingsPlanFile): Offer[] {
  const offers: Offer[] = [];
  for (const plan of file.plans) {
    const rows = file.rates.filter((row) => row.planType === plan.planType);
    const groups = new Map<string, { scopeParts: string[]; label: string; rows: RateRow[] }>();
    for (const row of rows) {
      const scopeParts = plan.perRegionFamily
        ? ['spend', plan.planType, row.region, row.family]
        : ['spend', plan.planType];
      const key = scopeParts.join('|');
      const group = groups.get(key) ?? {
        scopeParts,
        label: plan.perRegionFamily ? `, ${row.family}, ${row.region}` : '',
        rows: [],
      };
      group.rows.push(row);
      groups.set(key, group);
    }
    for (const { scopeParts, label, rows: groupRows } of groups.values()) {
      for (const [term, paymentOption] of termsAndPayments(groupRows)) {
        const termHours = PROVIDER_TERM_HOURS[term];
        const rated = groupRows.flatMap((row) => {
          const discount = row.discounts[term]?.[paymentOption];
          return discount === undefined ? [] : [{ row, discount }];
        });
        const rates: SpendRate[] = rated.map(({ row, discount }) =>
          // The Azure savings plan covers the compute meter of any OS (the license stays on demand,
          // commitment-price.ts): its rows are priced at the Linux rate but match every OS.
          file.provider === 'azure'
            ? { region: row.region, family: row.family, discount }
            : {
                region: row.region,
                family: row.family,
                operatingSystem: row.operatingSystem,
                tenancy: row.tenancy,
                discount,
              },
        );
        const sources = [...new Set(rated.map(({ row }) => row.source))].map((key) => {
          const source = file.sources[key];
          if (!source) throw new CatalogDataError(`unknown source ${key}`);
          return source;
        });
        const { id, providerOfferingId } = offerIdentity(
          file.provider,
          plan.contractType,
          term,
          paymentOption,
          scopeParts,
        );
        const { upfront, recurring } = splitEffectiveRate(1, paymentOption, termHours);
        offers.push({
          id,
          provider: file.provider,
          contractType: plan.contractType,
          term,
          paymentOption,
          scope: { kind: 'spend', rates },
          termHours,
          lockinHours: termHours,
          upfront,
          recurring,
          feeRate: 0,
          providerOfferingId,
          displayName: `${plan.displayName}${label}, ${TERM_LABELS[term]}, ${paymentOption}`,
          leasedDisplayName: '',
          productDescription: '',
          offeringClass: '',
          planType: plan.planType,
          source: sources.map((source) => source.description).join('; '),
          illustrative: sources.some((source) => source.illustrative),
        });
      }
    }
  }
  return offers;
}

/** Every (term, payment option) some row prices, in data order. */
function termsAndPayments(rows: readonly RateRow[]): [ProviderTerm, PaymentOption][] {
  const seen = new Map<string, [ProviderTerm, PaymentOption]>();
  for (const row of rows) {
    for (const [term, byPayment] of definedEntries(row.discounts)) {
      for (const [paymentOption] of definedEntries(byPayment))
        seen.set(`${term}|${paymentOption}`, [term, paymentOption]);
    }
  }
  return [...seen.values()];
}
