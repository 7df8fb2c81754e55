/**
 * The catalog offer an owned commitment was bought from (docs/plan-engine.md, What an owned
 * commitment covers). A savings plan does not carry its rates: they are the rates of the offer of
 * its provider, contract type and payment option (an EC2 Instance Savings Plan's also of its
 * family and region), nearest in term, then in lock-in. A reservation's offer only gives its fee rate.
 */
import type { ExistingCommitment, Offer, PaymentOption } from '../shapes/model';
import { HOUR_MS } from '../shapes/window-time';

export const commitmentTermHours = (commitment: ExistingCommitment): number =>
  (Date.parse(commitment.end) - Date.parse(commitment.start)) / HOUR_MS;

/**
 * The payment option a commitment was bought with: the one it records, else the one its costs
 * show: nothing recurring is all upfront, nothing upfront no upfront, both partial upfront.
 */
export function commitmentPaymentOption(commitment: ExistingCommitment): PaymentOption {
  if (commitment.paymentOption !== undefined) return commitment.paymentOption;
  if (commitment.recurringCost === 0) return 'All Upfront';
  if (commitment.upfrontCost === 0) return 'No Upfront';
  return 'Partial Upfront';
}

/** Whether every rate of a spend offer is of the family and region (an EC2 Instance Savings Plan's). */
function ratesOfFamily(offer: Offer, family: string | undefined, region: string): boolean {
  if (offer.scope.kind !== 'spend' || family === undefined) return false;
  const { rates } = offer.scope;
  return rates.length > 0 && rates.every((rate) => rate.family === family && rate.region === region);
}

function matchesSpend(commitment: ExistingCommitment, offer: Offer, payment: PaymentOption): boolean {
  if (offer.scope.kind !== 'spend' || offer.paymentOption !== payment) return false;
  return (
    commitment.contractType !== 'instance_plans' ||
    ratesOfFamily(offer, commitment.instanceFamily, commitment.region)
  );
}

/**
 * The offer `commitment` was bought from: same provider and contract type; for a savings plan the
 * same payment option (and family and region for `instance_plans`); then nearest term, nearest
 * lock-in, lowest id. Null when none matches: a savings plan then covers nothing (its cost still counts).
 */
export function commitmentOffer(commitment: ExistingCommitment, offers: readonly Offer[]): Offer | null {
  const isSpend = commitment.instanceType === null;
  const payment = commitmentPaymentOption(commitment);
  const term = commitmentTermHours(commitment);
  const lockin = (Date.parse(commitment.lockinEnd) - Date.parse(commitment.start)) / HOUR_MS;
  let best: Offer | null = null;
  for (const offer of offers) {
    if (offer.provider !== commitment.provider || offer.contractType !== commitment.contractType) continue;
    if (isSpend ? !matchesSpend(commitment, offer, payment) : offer.scope.kind === 'spend') continue;
    if (!best || closer(offer, best, term, lockin)) best = offer;
  }
  return best;
}

/**
 * Whether `offer` is nearer than `best` to a commitment of `term` and `lockin` hours: nearer in
 * term, then in lock-in (the leases of one reservation share its term and differ in lock-in and
 * fee: a 30-day lease is not a one-year one), then of lower id.
 */
function closer(offer: Offer, best: Offer, term: number, lockin: number): boolean {
  const byTerm = Math.abs(offer.termHours - term) - Math.abs(best.termHours - term);
  if (byTerm !== 0) return byTerm < 0;
  const byLockin = Math.abs(offer.lockinHours - lockin) - Math.abs(best.lockinHours - lockin);
  if (byLockin !== 0) return byLockin < 0;
  return offer.id < best.id;
}

/** The fields of a commitment that say what it covers and at which rate. */
export type CommitmentCoverageFields = Pick<
  ExistingCommitment,
  'operatingSystem' | 'tenancy' | 'deploymentOption' | 'instanceFamily' | 'paymentOption'
>;

/**
 * What a commitment bought from `offer` covers, as it is recorded: the payment option, a
 * reservation's platform (or engine) and tenancy, an RDS reservation's deployment (the catalog
 * sells Single-AZ ones), an EC2 Instance Savings Plan's family. commitmentOffer finds the offer back.
 */
export function offerCoverage(offer: Offer): CommitmentCoverageFields {
  const { scope } = offer;
  if (scope.kind === 'spend') {
    const family = scope.rates[0]?.family;
    return offer.contractType === 'instance_plans' && family !== undefined
      ? { paymentOption: offer.paymentOption, instanceFamily: family }
      : { paymentOption: offer.paymentOption };
  }
  return {
    paymentOption: offer.paymentOption,
    operatingSystem: scope.operatingSystem,
    tenancy: scope.tenancy,
    ...(offer.contractType === 'db_ris' ? { deploymentOption: 'Single-AZ' as const } : {}),
  };
}
