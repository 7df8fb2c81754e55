import { describe, expect, it } from 'vitest';
import { computePlans } from '../../../shared/domain/engine/plans/plans';
import { commitment, engineInput, hourly, offer, stream } from './builders';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[58][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const input = engineInput({
  hours: 48,
  streams: [
    stream({ resourceId: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0abc', usage: hourly(48, () => 4) }),
    stream({
      resourceId: 'i-linux',
      operatingSystem: 'Linux',
      instanceType: 'm5.xlarge',
      ondemandPrice: 0.192,
      usage: hourly(48, (hour) => (hour % 2 === 0 ? 2 : 1)),
    }),
  ],
  commitments: [commitment({ id: 'ri-owned', quantity: 1 })],
  offers: [
    offer({
      id: 'o-windows',
      recurring: 0.4,
      term: 'three_year',
      termHours: 26280,
      paymentOption: 'No Upfront',
    }),
    offer({
      id: 'o-family',
      recurring: 0.006,
      upfront: 0.006 * 8760,
      paymentOption: 'Partial Upfront',
      scope: {
        kind: 'family',
        region: 'us-east-1',
        family: 'm5',
        operatingSystem: 'Linux',
        tenancy: 'Shared',
      },
    }),
  ],
  createdBy: { username: 'ana@example.com', id: 'user-1', full_name: 'Ana' },
});

describe('engine outputs', () => {
  it('gives the same ids for the same inputs, and new ones for a new plan seed', () => {
    // Act
    const first = computePlans(input);
    const again = computePlans(input);
    const reseeded = computePlans({ ...input, planSeed: 'other-usage' });

    // Assess: the same records, the match tables' rows turned into records
    const records = (result: typeof first) => ({
      ...result,
      plans: result.plans.map((entry) => ({ ...entry, resourceMatches: Array.from(entry.resourceMatches) })),
    });
    expect(records(again)).toEqual(records(first));
    const ids = (result: typeof first) => [
      ...result.plans.map((entry) => entry.plan.id),
      ...result.plans.flatMap((entry) => entry.lineItems.map((item) => item.id)),
      ...result.plans.flatMap((entry) => Array.from(entry.resourceMatches).map(({ match }) => match.id)),
    ];
    expect(ids(first).every((id) => UUID.test(id))).toBe(true);
    expect(new Set(ids(first)).size).toBe(ids(first).length);
    expect(ids(reseeded).some((id) => ids(first).includes(id))).toBe(false);
  });

  it('describes each default profile by its hazard and how it weighs lock-in, never by coverage', () => {
    // Act
    const { plans } = computePlans(input);

    // Assess: the profiles are ordered by hazard (docs/plan-engine.md), which is what the text ranks
    expect(plans.map((entry) => [entry.plan.name, entry.plan.description])).toEqual([
      [
        'Recommended',
        'Assumes usage goes away with a 3% chance per month; weighs lock-in the most: prefers the shortest lock-ins.',
      ],
      [
        'Balanced',
        'Assumes usage goes away with a 1% chance per month; weighs lock-in less: takes longer lock-ins than Recommended where they save more.',
      ],
      [
        'High Savings',
        'Assumes usage goes away with a 0% chance per month; ignores lock-in: takes the lock-ins that save the most on the lookback, however long.',
      ],
    ]);
    expect(plans.some((entry) => /coverage/i.test(entry.plan.description ?? ''))).toBe(false);
  });

  it('fills a line item with its offer, contract spec and deterministic lease menu item', () => {
    // Act
    const { lineItems, plan } = computePlans(input).plans[0] as ReturnType<
      typeof computePlans
    >['plans'][number];

    // Assess
    const family = lineItems.find((item) => item.offer_id === 'o-family');
    expect(family?.plan_id).toBe(plan.id);
    expect(family?.account_id).toBe('111111111111');
    expect(family?.is_selected).toBe(true);
    expect(family?.lease_menu_item_id).toMatch(UUID);
    expect(family?.offer).toMatchObject({
      id: 'o-family',
      provider: 'AWS',
      type: 'standard_ris',
      region: 'us-east-1',
      duration_seconds: 8760 * 3600,
      instance_family: 'm5',
      instance_type: '',
      is_flexible: true,
      payment_option: 'Partial Upfront',
    });
    expect(family?.contract_spec).toEqual({
      commitment_type: 'standard_ris',
      properties: {
        scope: 'family',
        region: 'us-east-1',
        instance_family: 'm5',
        operating_system: 'Linux',
        tenancy: 'Shared',
      },
      term: 'one_year',
      payment_option: 'Partial Upfront',
    });
  });

  it('describes each matched resource from its stream', () => {
    // Act
    const { resourceMatches } = computePlans(input).plans[0] as ReturnType<
      typeof computePlans
    >['plans'][number];

    // Assess
    const windows = Array.from(resourceMatches).find(
      ({ match }) => match.resource.operating_system === 'Windows',
    )?.match;
    expect(windows?.usage_type).toBe('running');
    expect(windows?.resource).toMatchObject({
      id: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0abc',
      provider_resource_id: 'arn:aws:ec2:us-east-1:111111111111:instance/i-0abc',
      name: 'i-0abc',
      instance_id: 'i-0abc',
      provider: 'aws',
      family: 'General purpose',
      instance_type_family: 'm5',
      full_region_name: 'US East (N. Virginia)',
      normalization_size_factor: '4',
      license_model: 'License Included',
      provider_service: 'AmazonEC2',
      ondemand_usage_unit: 'Hrs',
      usage_start: '2025-01-01',
      usage_end: '2025-01-02',
      price_currency: 'USD',
      is_reservable: true,
    });
    expect(windows?.resource.resource_id).toMatch(UUID);
  });

  it('shapes the recommended plan as the v2 purchase plan with the same id and figures', () => {
    // Act
    const result = computePlans(input);

    // Assess
    const recommended = result.plans.find((entry) => entry.plan.id === result.recommendedPlanId);
    const purchase = result.purchasePlan;
    expect(recommended?.plan.name).toBe('Recommended');
    expect(purchase?.id).toBe(result.recommendedPlanId);
    expect(purchase?.savings).toBe(recommended?.plan.savings_hourly);
    expect(purchase?.total_cost).toBe(recommended?.plan.total_cost_hourly);
    expect(purchase?.commitment_coverage).toBe(recommended?.plan.commitment_coverage);
    expect(purchase?.max_term).toBe(recommended?.plan.max_term);
    expect(purchase?.data_source.length).toBeLessThanOrEqual(20);
    expect(purchase?.segment_id.length).toBeLessThanOrEqual(50);
    expect(purchase?.plan_type).toBe('purchase');
    expect(purchase?.reservation_ids).toEqual(['ri-owned']);
    expect(purchase?.created_by).toEqual({ username: 'ana@example.com', id: 'user-1', full_name: 'Ana' });
    expect(purchase?.segment).toMatchObject({ id: purchase?.segment_id, is_default: true, provider: 'aws' });
    expect(purchase?.execution_policy).toMatchObject({
      schedule: 'quarterly',
      enabled: false,
      segment_id: purchase?.segment_id,
      next_execution_date: '2025-04-01T00:00:00.000Z',
      end_date: '2026-02-01T00:00:00.000Z',
    });
    expect(purchase?.execution_policy.plans.map((plan) => plan.name)).toEqual([
      'Recommended',
      'Balanced',
      'High Savings',
    ]);
    expect(purchase?.flagged_actions).toEqual([]);
    expect(purchase?.included_contract_types).toEqual(
      [...new Set(recommended?.lineItems.map((item) => item.offer.type))].sort(),
    );
    expect(purchase?.aggregate_metrics.potential_coverage).toBe(recommended?.plan.commitment_coverage);
    expect(purchase?.aggregate_metrics.current_coverage).toBeGreaterThan(0);
    expect(purchase?.aggregate_metrics.current_coverage).toBeLessThan(
      purchase?.aggregate_metrics.potential_coverage ?? 0,
    );
    expect(purchase?.resource_ids).toEqual(
      [
        ...new Set(Array.from(recommended?.resourceMatches ?? []).map(({ match }) => match.resource.id)),
      ].sort(),
    );
  });
});
