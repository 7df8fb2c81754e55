/**
 * Line items: one per (offer, buying account) of a plan, with the offer as the spec shows it and
 * the figures of figures.ts. The buying account is the one whose usage the line covers most of. Quantities: reservations count units of their coverage group (instances,
 * or normalized units / vCPUs for size-flexible groups) and carry commitment 0; savings plans count
 * dollars per hour of commitment, so their quantity and commitment are the same number.
 */
import { deterministicUuid } from '../../deterministic-id';
import { instanceFamily } from '../shapes/instance-family';
import { type Offer, SPEND_ACROSS_REGIONS, type UsageStream } from '../shapes/model';
import type { ContractSpec, LineItem, LineItemOffer } from '../shapes/plan-shapes';
import { HOURS_PER_MONTH } from '../shapes/window-time';
import type { LineCoverage } from '../tallies/line-coverage';
import { type LineFigures, lineFigures } from './figures';

/**
 * `partStart`: the start of a part of a line cut at a renewal (renewal-split.ts), which has the same
 * offer and account as the part bought now; absent or null for every other line.
 */
export function lineItemId(
  planId: string,
  offer: Offer,
  accountId: string,
  partStart?: string | null,
): string {
  return typeof partStart === 'string'
    ? deterministicUuid('line-item', planId, offer.id, accountId, partStart)
    : deterministicUuid('line-item', planId, offer.id, accountId);
}

/**
 * The account that should buy a line (docs/plan-engine.md, Sharing scope): the one whose usage it covers the
 * most on-demand dollars of; when it covers nothing, the one with the most usage left before it;
 * ties to the lowest account id. Under `account` sharing every member is of one account.
 */
export function buyingAccount(coverage: LineCoverage, streams: readonly UsageStream[]): string {
  const { line, tally } = coverage;
  const members = line.pool.members;
  const basis = coverage.coveredValue > 0 ? tally.covered : tally.before;
  const value = new Map<string, number>();
  for (let position = 0; position < members.length; position++) {
    const stream = streams[members[position] as number] as UsageStream;
    const dollars = (basis[position] as number) * stream.ondemandPrice;
    value.set(stream.accountId, (value.get(stream.accountId) ?? 0) + dollars);
  }
  let best = '';
  let bestValue = Number.NEGATIVE_INFINITY;
  for (const [accountId, dollars] of value) {
    if (dollars > bestValue || (dollars === bestValue && accountId < best)) {
      best = accountId;
      bestValue = dollars;
    }
  }
  return best;
}

/** A field shared by every rate entry of a spend offer, or `fallback` when they differ. */
function commonRateField(offer: Offer, field: 'region' | 'family' | 'tenancy', fallback: string): string {
  if (offer.scope.kind !== 'spend') return fallback;
  const values = new Set(offer.scope.rates.map((rate) => rate[field]));
  const [only] = values;
  return values.size === 1 && only !== undefined ? only : fallback;
}

function offerView(offer: Offer): LineItemOffer {
  const scope = offer.scope;
  return {
    id: offer.id,
    provider: offer.provider.toUpperCase(),
    provider_offering_id: offer.providerOfferingId,
    type: offer.contractType,
    display_name: offer.displayName,
    leased_display_name: offer.leasedDisplayName,
    region: scope.kind === 'spend' ? commonRateField(offer, 'region', SPEND_ACROSS_REGIONS) : scope.region,
    duration_seconds: offer.termHours * 3600,
    upfront_cost: offer.upfront,
    recurring_cost: offer.recurring,
    offering_id: offer.id,
    product_description: offer.productDescription,
    instance_family:
      scope.kind === 'family'
        ? scope.family
        : scope.kind === 'instance'
          ? instanceFamily(offer.provider, scope.instanceType)
          : commonRateField(offer, 'family', ''),
    instance_type: scope.kind === 'instance' ? scope.instanceType : '',
    tenancy: scope.kind === 'spend' ? commonRateField(offer, 'tenancy', '') : scope.tenancy,
    // Offers are regional: no availability zone.
    az: '',
    is_multi_az: false,
    is_flexible: scope.kind !== 'instance',
    plan_type: offer.planType,
    offering_class: offer.offeringClass,
    payment_option: offer.paymentOption,
  };
}

function contractSpec(offer: Offer): ContractSpec {
  const scope = offer.scope;
  const properties: Record<string, string> =
    scope.kind === 'instance'
      ? {
          scope: scope.kind,
          region: scope.region,
          instance_type: scope.instanceType,
          operating_system: scope.operatingSystem,
          tenancy: scope.tenancy,
        }
      : scope.kind === 'family'
        ? {
            scope: scope.kind,
            region: scope.region,
            instance_family: scope.family,
            operating_system: scope.operatingSystem,
            tenancy: scope.tenancy,
          }
        : { scope: scope.kind, plan_type: offer.planType };
  return {
    commitment_type: offer.contractType,
    properties,
    term: offer.term,
    payment_option: offer.paymentOption,
  };
}

/** Figures of a coverage computed over the whole window of `hours` hours. */
export function coverageFigures(coverage: LineCoverage, hours: number): LineFigures {
  const mean = (total: number) => (hours > 0 ? total / hours : 0);
  return lineFigures(
    coverage.line.offer,
    coverage.line.quantity,
    mean(coverage.coveredValue),
    mean(coverage.usedUnits),
  );
}

export function buildLineItem(
  planId: string,
  accountId: string,
  coverage: LineCoverage,
  figures: LineFigures,
  streams: readonly UsageStream[],
  hours: number,
  beforeReservedCost: number,
  startsAt: string | null,
): LineItem {
  const { line, tally } = coverage;
  const offer = line.offer;
  // A loop, not forEach: a sum a callback adds to lives boxed in the closure, one allocation per add.
  let beforeValue = 0;
  for (let position = 0; position < line.pool.members.length; position++) {
    const s = line.pool.members[position] as number;
    beforeValue += (tally.before[position] ?? 0) * (streams[s]?.ondemandPrice ?? 0);
  }
  const beforeOndemand = hours > 0 ? beforeValue / hours : 0;
  const commitment = offer.scope.kind === 'spend' ? line.quantity : 0;
  return {
    id: lineItemId(planId, offer, accountId, line.startsAt),
    plan_id: planId,
    offer_id: offer.id,
    lease_menu_item_id: deterministicUuid('lease-menu-item', offer.id),
    account_id: accountId,
    recommended_quantity: line.quantity,
    selected_quantity: line.quantity,
    recommended_commitment: commitment,
    selected_commitment: commitment,
    is_selected: true,
    after_amortized_cost: figures.amortized,
    upfront_cost: figures.upfront,
    recurring_cost: figures.recurring,
    before_cost: beforeOndemand + beforeReservedCost,
    before_ondemand_cost: beforeOndemand,
    before_reserved_cost: beforeReservedCost,
    covered_ondemand_cost: figures.coveredOndemand,
    after_covered_units: figures.coveredUnits,
    total_cost: figures.totalCost,
    monthly_cost: figures.monthlyCost,
    savings: figures.savings,
    monthly_savings: figures.savings * HOURS_PER_MONTH,
    total_savings: figures.totalSavings,
    fee: figures.fee,
    discount_rate: figures.discountRate,
    breakeven_hours: figures.breakevenHours,
    contract_term: offer.term,
    payment_option: offer.paymentOption,
    contract_spec: contractSpec(offer),
    offer: offerView(offer),
    startsAt,
    layer: line.layer,
  };
}
