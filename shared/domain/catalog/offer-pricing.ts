import { deterministicUuid } from '../deterministic-id';
import type { PaymentOption } from '../engine/shapes/model';
import type { ProviderTerm } from './catalog-terms';

export const TERM_LABELS: Readonly<Record<ProviderTerm, string>> = {
  one_year: '1 year',
  three_year: '3 years',
};

const PAYMENT_SLUGS: Readonly<Record<PaymentOption, string>> = {
  'No Upfront': 'no-upfront',
  'Partial Upfront': 'partial-upfront',
  'All Upfront': 'all-upfront',
};

/**
 * Splits an effective hourly rate (what one unit costs per hour over the whole term) into what is
 * paid when: All Upfront pays the whole term at purchase; No Upfront pays it hourly; Partial Upfront
 * pays half at purchase and half hourly, the split AWS's partial-upfront prices follow closely.
 * In every case upfront / termHours + recurring = rate.
 */
export function splitEffectiveRate(
  rate: number,
  paymentOption: PaymentOption,
  termHours: number,
): { upfront: number; recurring: number } {
  switch (paymentOption) {
    case 'All Upfront':
      return { upfront: rate * termHours, recurring: 0 };
    case 'No Upfront':
      return { upfront: 0, recurring: rate };
    case 'Partial Upfront':
      return { upfront: (rate * termHours) / 2, recurring: rate / 2 };
  }
}

/**
 * The offer's identity as the catalog's offering key (`aws/standard_ris/one_year/no-upfront/family/...`)
 * and the stable UUID derived from it. Provider offering ids are per purchase and region, so the
 * catalog names offerings by what they are.
 */
export function offerIdentity(
  provider: string,
  contractType: string,
  term: ProviderTerm,
  paymentOption: PaymentOption,
  scopeParts: readonly string[],
): { id: string; providerOfferingId: string } {
  const parts = [provider, contractType, term, PAYMENT_SLUGS[paymentOption], ...scopeParts];
  return { id: deterministicUuid('offer', ...parts), providerOfferingId: parts.join('/') };
}

/** The entries of a partial record whose values are present, with their key type kept. */
export function definedEntries<K extends string, V>(record: Partial<Record<K, V>>): [K, V][] {
  return (Object.entries(record) as [K, V | undefined][]).filter(
    (entry): entry is [K, V] => entry[1] !== undefined,
  );
}
