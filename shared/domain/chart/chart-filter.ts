import type { ExistingCommitment, Offer, OfferTerm, PaymentOption, UsageStream } from '../engine';
import { instanceFamily } from '../engine/shapes/instance-family';

/**
 * The commitments chart's `filter` (#10, docs/plans-api.md): criteria on attributes of the
 * commitments and of the usage they cover. A criterion tests what an item has: usage has an
 * account, region, service and instance family; a commitment an account, region (spend
 * commitments that are not regional have none), instance family (reservations), contract type,
 * term and payment option. An item without the attribute a criterion names passes it: a
 * criterion on `contract_type` (term, payment option) selects the commitments shown and leaves all
 * usage and every commitment applied, so that the chart shows the selected commitments' share of
 * the portfolio (filterChartInputs). Except where the usage runs: a commitment
 * with no region or instance family (a global or compute savings plan) fails every criterion on
 * them, because it covers usage the criterion leaves out; charted against one region's usage, it
 * would show its whole cost against a part of what it covers (negative savings).
 */

export const chartFilterFields = [
  'account_id',
  'region',
  'service',
  'instance_family',
  'contract_type',
  'contract_term',
  'payment_option',
] as const;
export type ChartFilterField = (typeof chartFilterFields)[number];

/** `eq`/`ne` compare with one value, `in`/`not_in` with a list; all criteria of a filter must hold. */
export type ChartCriterion =
  | { readonly field: ChartFilterField; readonly op: 'eq' | 'ne'; readonly value: string }
  | { readonly field: ChartFilterField; readonly op: 'in' | 'not_in'; readonly value: readonly string[] };

type Attributes = Partial<Record<ChartFilterField, string>>;

const HOUR_MS = 3_600_000;

function streamAttributes(stream: UsageStream): Attributes {
  return {
    account_id: stream.accountId,
    region: stream.region,
    service: stream.service,
    instance_family: stream.instanceType ? instanceFamily(stream.provider, stream.instanceType) : undefined,
  };
}

/** What the commitment pays: all of it upfront, part of it, or nothing upfront. */
export function commitmentPaymentOption(commitment: ExistingCommitment): PaymentOption {
  if (commitment.upfrontCost > 0) return commitment.recurringCost > 0 ? 'Partial Upfront' : 'All Upfront';
  return 'No Upfront';
}

/**
 * The term of a commitment: that of the catalog offers of its provider and contract type whose
 * term is nearest its own length (as the engine reads which offer it was bought from).
 */
export function commitmentTerm(
  commitment: ExistingCommitment,
  offers: readonly Offer[],
): OfferTerm | undefined {
  const hours = (Date.parse(commitment.end) - Date.parse(commitment.start)) / HOUR_MS;
  let nearest: Offer | undefined;
  for (const offer of offers) {
    if (offer.provider !== commitment.provider || offer.contractType !== commitment.contractType) continue;
    if (!nearest || Math.abs(offer.termHours - hours) < Math.abs(nearest.termHours - hours)) nearest = offer;
  }
  return nearest?.term;
}

function commitmentAttributes(commitment: ExistingCommitment, offers: readonly Offer[]): Attributes {
  return {
    account_id: commitment.accountId,
    region: commitment.region === '' ? undefined : commitment.region,
    instance_family:
      commitment.instanceType === null
        ? undefined
        : instanceFamily(commitment.provider, commitment.instanceType),
    contract_type: commitment.contractType,
    contract_term: commitmentTerm(commitment, offers),
    payment_option: commitmentPaymentOption(commitment),
  };
}

/** Where usage runs: a commitment not tied to one value of these covers usage in several. */
const PLACE_FIELDS: ReadonlySet<ChartFilterField> = new Set(['region', 'instance_family']);

function holds(criterion: ChartCriterion, attributes: Attributes, isCommitment: boolean): boolean {
  const value = attributes[criterion.field];
  if (value === undefined) return !(isCommitment && PLACE_FIELDS.has(criterion.field));
  switch (criterion.op) {
    case 'eq':
      return value === criterion.value;
    case 'ne':
      return value !== criterion.value;
    case 'in':
      return criterion.value.includes(value);
    case 'not_in':
      return !criterion.value.includes(value);
  }
}

/** What only a commitment has: a criterion on these selects commitments, it does not change the bill. */
const COMMITMENT_FIELDS: ReadonlySet<ChartFilterField> = new Set([
  'contract_type',
  'contract_term',
  'payment_option',
]);

/** What the chart applies and what it shows of it. */
export interface ChartedInputs {
  /** The usage that meets every criterion. */
  readonly streams: UsageStream[];
  /** The commitments applied to it: those meeting every criterion on where usage runs and whose it is. */
  readonly commitments: ExistingCommitment[];
  /**
   * Ids of the commitments whose figures the chart shows, when a criterion on what only a
   * commitment has (contract type, term, payment option) selects some; null: all of them.
   */
  readonly selected: ReadonlySet<string> | null;
}

/**
 * The usage and commitments the chart applies, and the commitments it shows. A criterion on what
 * only a commitment has selects the commitments shown, as Cost Explorer's utilization report
 * does: every commitment still applies in the provider's order, and a selected one shows what it
 * actually does in the portfolio (a savings plan that reservations leave half its usage shows
 * half used), not what it would do alone.
 */
export function filterChartInputs(
  criteria: readonly ChartCriterion[],
  streams: readonly UsageStream[],
  commitments: readonly ExistingCommitment[],
  offers: readonly Offer[],
): ChartedInputs {
  const applying = criteria.filter((criterion) => !COMMITMENT_FIELDS.has(criterion.field));
  const selecting = criteria.filter((criterion) => COMMITMENT_FIELDS.has(criterion.field));
  const meets = (chosen: readonly ChartCriterion[], attributes: Attributes, isCommitment: boolean) =>
    chosen.every((criterion) => holds(criterion, attributes, isCommitment));
  const applied = commitments.filter((commitment) =>
    meets(applying, commitmentAttributes(commitment, offers), true),
  );
  return {
    streams: streams.filter((stream) => meets(criteria, streamAttributes(stream), false)),
    commitments: applied,
    selected:
      selecting.length === 0
        ? null
        : new Set(
            applied
              .filter((commitment) => meets(selecting, commitmentAttributes(commitment, offers), true))
              .map((commitment) => commitment.id),
          ),
  };
}
