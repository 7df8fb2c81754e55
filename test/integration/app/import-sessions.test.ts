import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDefaultPlans } from '../../../shared/app/commitment-plans';
import { defaultImportLeaseMs, openImport } from '../../../shared/app/import-sessions';
import { importUsage } from '../../../shared/app/import-usage';
import { createOrg } from '../../../shared/app/operator';
import { computingPlansHere, refreshPlans } from '../../../shared/app/plan-computation';
import type { AppContext, Clock, WithPlanComputation } from '../../../shared/app/ports';
import { ConflictError } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import { randomIds } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';
import { alwaysOn, fleet, gcpN2Standard8 as gcp, recordsOf, usageLines } from '../../support/usage-files';

/** A clock the tests move: imports and plans are judged by it. */
let nowMs = Date.parse('2026-07-02T00:00:00Z');
const clock: Clock = { now: () => new Date(nowMs) };

let table: TestTable;
let ctx: WithPlanComputation<AppContext>;

beforeAll(async () => {
  table = await startTestTable();
  ctx = computingPlansHere({ repos: table.store, clock, ids: randomIds });
});

afterAll(async () => {
  await table.close();
});

/** June 2026 of two always-on n2-standard-8 instances: enough for plans with line items. */
const juneUsage = () =>
  recordsOf(usageLines('2026-06-01T00:00:00Z', 720, fleet(2, 'vm', { ...gcp, unitsAt: alwaysOn })));
/** The same instances, one of them at half use: different inputs, different plans. */
const otherJuneUsage = () =>
  recordsOf(
    usageLines('2026-06-01T00:00:00Z', 720, [
      ...fleet(1, 'vm', { ...gcp, unitsAt: alwaysOn }),
      ...fleet(1, 'half', { ...gcp, unitsAt: (t) => t % 2 }),
    ]),
  );

async function orgWithPlans(): Promise<{ orgId: string; principal: Principal; planIds: string[] }> {
  const org = await createOrg(ctx, `Sessions ${randomIds.uuid()}`, null);
  await importUsage(ctx, { orgId: org.id, records: juneUsage() });
  const principal: Principal = { kind: 'partner', orgId: org.id, scopes: ['*'] };
  const plans = await listDefaultPlans(ctx, principal, org.id, 'gcp');
  return { orgId: org.id, principal, planIds: plans.map((plan) => plan.id) };
}

describe('import sessions', () => {
  it('refuse a second import of the org and provider while one is open, before it writes anything', async () => {
    // Prepare
    const { orgId } = await orgWithPlans();
    const window = { start: '2026-06-01T00:00:00Z', hours: 720 };
    const before = await ctx.repos.usage.loadUsage(orgId, 'gcp', window);
    const running = await openImport(ctx, orgId, 'gcp');

    // Act
    const second = importUsage(ctx, { orgId, records: otherJuneUsage() });

    // Assess
    await expect(second).rejects.toBeInstanceOf(ConflictError);
    await expect(second).rejects.toThrow(
      new RegExp(
        `import of gcp data for organization ${orgId} is running \\(session ${running.sessionId}.*take it over`,
      ),
    );
    expect(await ctx.repos.usage.loadUsage(orgId, 'gcp', window)).toEqual(before);
    expect((await ctx.repos.usage.usageState(orgId, 'gcp'))?.importSession?.sessionId).toBe(
      running.sessionId,
    );
  });

  it('open exactly one of two sessions begun at the same moment', async () => {
    // Prepare
    const org = await createOrg(ctx, `Race ${randomIds.uuid()}`, null);

    // Act
    const outcomes = await Promise.allSettled([
      openImport(ctx, org.id, 'aws'),
      openImport(ctx, org.id, 'aws'),
    ]);

    // Assess
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((outcome) => outcome.status === 'rejected');
    expect(refused?.reason).toBeInstanceOf(ConflictError);
    expect((await ctx.repos.usage.usageState(org.id, 'aws'))?.usageVersion).toBe(1);
  });

  it('let an import take an open one over: the taken-over one can neither renew nor finish, the new plans are current', async () => {
    // Prepare
    const { orgId, principal, planIds } = await orgWithPlans();
    const stopped = await openImport(ctx, orgId, 'gcp');

    // Act
    await importUsage(ctx, { orgId, records: otherJuneUsage(), takeOver: true });
    nowMs += defaultImportLeaseMs / 5;
    const renewal = await stopped.keepAlive().catch((error: unknown) => error);
    const finish = await stopped
      .finish({ kind: 'commitments', commitments: 0 })
      .catch((error: unknown) => error);
    const plans = await listDefaultPlans(ctx, principal, orgId, 'gcp');

    // Assess
    expect(renewal).toBeInstanceOf(ConflictError);
    expect((renewal as Error).message).toMatch(/took this one over/);
    expect(finish).toBeInstanceOf(ConflictError);
    expect((await ctx.repos.usage.usageState(orgId, 'gcp'))?.importSession).toBeNull();
    expect(plans.map((plan) => plan.is_calculating)).toEqual([false, false, false]);
    expect(plans.map((plan) => plan.id)).not.toEqual(planIds);
  });

  it('count a killed import as abandoned once its lease ran out: nothing blocked, its half-written usage never planned', async () => {
    // Prepare: an import opened and wrote half its usage, then its process died.
    const { orgId, principal, planIds } = await orgWithPlans();
    const killed = await openImport(ctx, orgId, 'gcp');
    const halfWritten = {
      provider: 'gcp' as const,
      covered: {
        firstHour: Date.parse('2026-06-01T00:00:00Z') / 3_600_000,
        lastHour: Date.parse('2026-06-10T00:00:00Z') / 3_600_000,
      },
      rows: 0,
      series: [],
    };
    await ctx.repos.usage.replaceCoveredHours(orgId, halfWritten, killed.usageVersion);

    // Act
    const whileLeased = await listDefaultPlans(ctx, principal, orgId, 'gcp');
    const refreshWhileLeased = await refreshPlans(ctx, orgId, 'gcp');
    nowMs += defaultImportLeaseMs;
    const refreshAfterLease = await refreshPlans(ctx, orgId, 'gcp');
    const afterLease = await listDefaultPlans(ctx, principal, orgId, 'gcp');
    const next = await importUsage(ctx, { orgId, records: juneUsage() });
    const afterNext = await listDefaultPlans(ctx, principal, orgId, 'gcp');

    // Assess
    expect(refreshWhileLeased.outcome).toBe('importing');
    expect(whileLeased.map((plan) => [plan.id, plan.is_calculating])).toEqual(
      planIds.map((id) => [id, true]),
    );
    expect(refreshAfterLease.outcome).toBe('current');
    expect(afterLease.map((plan) => [plan.id, plan.is_calculating])).toEqual(
      planIds.map((id) => [id, false]),
    );
    expect(next.providers[0]?.usageVersion).toBe(killed.usageVersion + 1);
    expect(afterNext.every((plan) => !plan.is_calculating && !planIds.includes(plan.id))).toBe(true);
  });

  it('keep every provider of a file alive while any is written, and renew none that ended', async () => {
    // Prepare: a clock that moves a second per reading and a lease of ten: leases are renewed
    // while the import writes, and the first provider's session ends before the second one writes.
    const org = await createOrg(ctx, `Two providers ${randomIds.uuid()}`, null);
    let tickingMs = nowMs;
    const tick = () => {
      tickingMs += 1000;
      return new Date(tickingMs);
    };
    const ticking: AppContext = { ...ctx, clock: { now: tick } };
    const aws = fleet(1, 'i', {
      provider: 'aws',
      accountId: '111111111111',
      region: 'us-east-1',
      service: 'AmazonEC2',
      instanceType: 'm5.large',
      operatingSystem: 'Linux',
      unitsAt: alwaysOn,
    });
    const gce = fleet(201, 'vm', { ...gcp, unitsAt: alwaysOn });
    const lines = usageLines('2026-05-01T00:00:00Z', 24 * 31, [...aws, ...gce]);

    // Act
    const summary = await importUsage(ticking, { orgId: org.id, records: recordsOf(lines), leaseMs: 10_000 });

    // Assess
    expect(summary.providers.map((imported) => imported.provider)).toEqual(['aws', 'gcp']);
    expect((await ctx.repos.usage.usageState(org.id, 'aws'))?.importSession).toBeNull();
    expect((await ctx.repos.usage.usageState(org.id, 'gcp'))?.importSession).toBeNull();
  });

  it('give the session up at once when an import fails half-way, so that running it again needs no take-over', async () => {
    // Prepare: writes that fail after the session opened.
    const { orgId } = await orgWithPlans();
    const failing: AppContext = {
      ...ctx,
      repos: {
        ...ctx.repos,
        usage: {
          ...ctx.repos.usage,
          replaceCoveredHours: () => Promise.reject(new Error('throttled')),
        },
      },
    };

    // Act
    const failed = importUsage(failing, { orgId, records: otherJuneUsage() });
    await expect(failed).rejects.toThrow('throttled');
    const again = await importUsage(ctx, { orgId, records: otherJuneUsage() });

    // Assess
    expect(again.providers[0]?.usageVersion).toBe(3);
    expect((await ctx.repos.usage.usageState(orgId, 'gcp'))?.importSession).toBeNull();
  });
});
