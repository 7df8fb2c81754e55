/**
 * The engine end to end on generated fleets: every provider's catalog, a realistic mix of usage
 * patterns and the commitments such an org already owns. Its outputs must be exactly the shapes
 * the contract publishes: every object parsed strictly (no missing field, no field the spec does
 * not have), every number finite.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { generateCommitments } from '../../../local/demo/synthetic-commitments';
import { generateFleet } from '../../../local/demo/synthetic-fleet';
import { chartPoint } from '../../../shared/contract/chart';
import { commitmentPlan, lineItem } from '../../../shared/contract/plans';
import { recommendedPurchasePlan } from '../../../shared/contract/purchase-plans';
import { resourceMatch } from '../../../shared/contract/resource-matches';
import { loadCatalog } from '../../../shared/domain/catalog/catalog';
import { chartSeries, computePlans, type EngineInput, type Provider } from '../../../shared/domain/engine';

const catalog = loadCatalog();
// A Monday, 30 days.
const WINDOW = { start: '2026-06-01T00:00:00.000Z', hours: 720 };
const ORG_ID = '5b0c8c3e-7f41-4d6a-9a57-2f1e8d3c6b90';

/**
 * The schema with every object in it strict, however deep: an extra field fails as a missing one
 * does. Free-form objects of the spec (records) stay free-form.
 */
function strictly(schema: z.ZodMiniType): z.ZodMiniType {
  if (schema instanceof z.ZodMiniObject) {
    const shape = Object.fromEntries(
      Object.entries(schema.shape as Record<string, z.ZodMiniType>).map(([key, field]) => [
        key,
        strictly(field),
      ]),
    );
    return z.strictObject(shape);
  }
  if (schema instanceof z.ZodMiniOptional) return z.optional(strictly(schema.def.innerType as z.ZodMiniType));
  if (schema instanceof z.ZodMiniNullable) return z.nullable(strictly(schema.def.innerType as z.ZodMiniType));
  if (schema instanceof z.ZodMiniArray) return z.array(strictly(schema.def.element as z.ZodMiniType));
  return schema;
}

const strict = {
  plan: strictly(commitmentPlan),
  lineItem: strictly(lineItem),
  resourceMatch: strictly(resourceMatch),
  purchasePlan: strictly(recommendedPurchasePlan),
  chartPoint: strictly(chartPoint),
};

/** Paths of the numbers in `value` that are not finite. */
function nonFinite(value: unknown, path = ''): string[] {
  if (typeof value === 'number') return Number.isFinite(value) ? [] : [path];
  if (Array.isArray(value)) return value.flatMap((item, index) => nonFinite(item, `${path}[${index}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => nonFinite(item, `${path}.${key}`));
  }
  return [];
}

/** Parses `value` strictly, failing with zod's message (which names the field) if it does not parse. */
function expectShape(schema: z.ZodMiniType, value: unknown): void {
  const result = schema.safeParse(value);
  expect(result.success ? '' : z.prettifyError(result.error)).toBe('');
}

function generatedInput(provider: Provider): EngineInput {
  const streams = generateFleet({
    seed: 'generated-fleets',
    provider,
    streams: 300,
    window: WINDOW,
    catalog,
  });
  const commitments = generateCommitments({
    seed: 'generated-fleets',
    provider,
    streams,
    window: WINDOW,
    catalog,
    count: 4,
  });
  return {
    orgId: ORG_ID,
    provider,
    window: WINDOW,
    streams,
    commitments,
    offers: catalog.offers(provider),
    planSeed: `generated-fleets:${provider}`,
    createdAt: '2026-07-01T08:00:00.000Z',
  };
}

describe.each(['aws', 'azure', 'gcp'] as const)('the engine on a generated %s fleet', (provider) => {
  const input = generatedInput(provider);
  const result = computePlans(input);

  it('computes the three default plans, recommends one and shapes it as the purchase plan', () => {
    // Assess
    expect(input.commitments.length).toBeGreaterThan(0);
    expect(result.plans.map((entry) => entry.plan.name)).toEqual(['Recommended', 'Balanced', 'High Savings']);
    const recommended = result.plans[0];
    expect(result.recommendedPlanId).toBe(recommended?.plan.id);
    expect(recommended?.lineItems.some((item) => item.savings > 0)).toBe(true);
    expect(result.purchasePlan?.id).toBe(result.recommendedPlanId);
  });

  it('gives plans, line items, resource matches and the purchase plan exactly as the contract shapes them', () => {
    // Assess
    for (const { plan, lineItems, resourceMatches } of result.plans) {
      expectShape(strict.plan, plan);
      for (const item of lineItems) expectShape(strict.lineItem, item);
      expect(resourceMatches.size).toBeGreaterThan(0);
      for (const { match } of resourceMatches) expectShape(strict.resourceMatch, match);
    }
    expectShape(strict.purchasePlan, result.purchasePlan);
  });

  it('gives finite numbers only', () => {
    // Assess
    expect(nonFinite(result.plans)).toEqual([]);
    expect(nonFinite(result.purchasePlan)).toEqual([]);
  });

  it('covers the most with High Savings, and reserves no more of a group under a higher hazard', () => {
    // Prepare
    const [recommended, balanced, highSavings] = result.plans;
    const coverage = (entry: typeof recommended) => entry?.plan.commitment_coverage ?? 0;
    // Per group (the offers' scope) and buying account: the units of its layers together. One
    // offer's quantity may fall as the hazard falls: a longer lock-in takes the bottom of the
    // group, and the offer that had it is left the top (docs/plan-engine.md, Layers).
    const scopeOf = new Map(input.offers.map((offer) => [offer.id, JSON.stringify(offer.scope)]));
    const reservations = (entry: typeof recommended) => {
      const units = new Map<string, number>();
      for (const item of entry?.lineItems ?? []) {
        if (item.selected_commitment !== 0) continue;
        const key = `${scopeOf.get(item.offer_id)}/${item.account_id}`;
        units.set(key, (units.get(key) ?? 0) + item.selected_quantity);
      }
      return units;
    };

    // Assess. Recommended may cover more than Balanced: where its best offer is a leased one that
    // locks in 30 days, a unit pays as soon as it covers more than it costs, while Balanced's
    // 3-year offers need more than that (B > A); so only High Savings is compared with both.
    expect(coverage(highSavings)).toBeGreaterThanOrEqual(coverage(balanced) - 1e-12);
    expect(coverage(highSavings)).toBeGreaterThanOrEqual(coverage(recommended) - 1e-12);
    const pairs = [
      [recommended, balanced],
      [balanced, highSavings],
      [recommended, highSavings],
    ] as const;
    for (const [higherHazard, lowerHazard] of pairs) {
      const lower = reservations(lowerHazard);
      for (const [key, quantity] of reservations(higherHazard)) {
        if (lower.has(key)) expect(lower.get(key)).toBeGreaterThanOrEqual(quantity);
      }
    }
  });

  it('charts the window in points the contract shapes', () => {
    // Act
    const points = chartSeries({
      window: WINDOW,
      streams: input.streams,
      commitments: input.commitments,
      offers: input.offers,
      startDate: '2026-06-01',
      endDate: '2026-06-30',
      today: '2026-06-30',
    });

    // Assess
    expect(points).toHaveLength(30);
    for (const point of points) expectShape(strict.chartPoint, point);
    expect(nonFinite(points)).toEqual([]);
  });
});
