import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authenticateApiKey } from '../../../shared/app/authenticate';
import { createOrg, createPartner, createUserKey, revokeKey } from '../../../shared/app/operator';
import { inviteChildOrgUsers, registerChildOrg } from '../../../shared/app/partner-orgs';
import { updatePartnerSettings } from '../../../shared/app/partner-settings';
import type { AppContext } from '../../../shared/app/ports';
import { ConflictError, ForbiddenError, NotFoundError } from '../../../shared/domain/errors';
import type { Principal } from '../../../shared/domain/principal';
import { randomIds, systemClock } from '../../../shared/runtime/app-context';
import { startTestTable, type TestTable } from '../../support/dynalite';

let table: TestTable;
let ctx: AppContext;

beforeAll(async () => {
  table = await startTestTable();
  ctx = { repos: table.store, clock: systemClock, ids: randomIds };
});

afterAll(async () => {
  await table.close();
});

const partnerOf = (orgId: string): Principal => ({ kind: 'partner', orgId, scopes: ['*'] });

function registration(name: string, users: { email: string; role: 'admin' | 'user' }[] = []) {
  return {
    name,
    partnerSubscriptionId: null,
    domain: null,
    primaryAddress: null,
    offerLinks: {},
    members: users.map((user) => ({ ...user, name: null })),
  };
}

/** The test's context with some org repository methods replaced (to interrupt or hold a registration). */
function withOrgUpdates(overrides: Partial<AppContext['repos']['orgUpdates']>): AppContext {
  return { ...ctx, repos: { ...ctx.repos, orgUpdates: { ...ctx.repos.orgUpdates, ...overrides } } };
}

describe('registering a child org', () => {
  it('creates the org, its members and the partner link', async () => {
    // Prepare
    const { org: partner } = await createPartner(ctx, 'Reseller One');

    // Act
    const { org, memberships } = await registerChildOrg(
      ctx,
      partnerOf(partner.id),
      partner.id,
      registration('Acme', [{ email: '  Ops@Acme.Example ', role: 'admin' }]),
    );

    // Assess
    expect(await ctx.repos.orgs.get(org.id)).toEqual(org);
    expect(org.parentOrgId).toBe(partner.id);
    expect(memberships).toEqual([expect.objectContaining({ email: 'ops@acme.example', role: 'admin' })]);
    expect(await ctx.repos.orgs.getChildLink(partner.id, org.id)).toMatchObject({ childOrgName: 'Acme' });
  });

  it('answers a conflict naming the existing org when the partner has that name already', async () => {
    // Prepare
    const { org: partner } = await createPartner(ctx, 'Reseller Two');
    const { org: first } = await registerChildOrg(
      ctx,
      partnerOf(partner.id),
      partner.id,
      registration('Globex'),
    );

    // Act
    const attempt = registerChildOrg(ctx, partnerOf(partner.id), partner.id, registration('  globex '));

    // Assess
    await expect(attempt).rejects.toThrow(ConflictError);
    await expect(attempt).rejects.toThrow(first.id);
    expect(await ctx.repos.orgs.listChildLinks(partner.id)).toHaveLength(1);
  });

  it('completes a registration that was interrupted after claiming the name', async () => {
    // Prepare: the first attempt fails after the claim and the members, before the link and the org.
    const { org: partner } = await createPartner(ctx, 'Reseller Three');
    const interrupted = withOrgUpdates({
      putChildLink: async () => {
        throw new Error('interrupted');
      },
    });
    const initech = registration('Initech', [{ email: 'ops@initech.example', role: 'admin' }]);
    await expect(registerChildOrg(interrupted, partnerOf(partner.id), partner.id, initech)).rejects.toThrow(
      'interrupted',
    );

    // Act
    const { org, memberships } = await registerChildOrg(ctx, partnerOf(partner.id), partner.id, initech);

    // Assess
    expect(await ctx.repos.orgs.get(org.id)).toEqual(org);
    expect(memberships).toEqual([expect.objectContaining({ email: 'ops@initech.example', role: 'admin' })]);
    expect(await ctx.repos.orgs.getChildLink(partner.id, org.id)).toMatchObject({ childOrgName: 'Initech' });
  });

  it('refuses a registration of a name another one is still registering, adding none of its members', async () => {
    // Prepare: the first registration is held just before it writes its org item.
    const { org: partner } = await createPartner(ctx, 'Reseller Four');
    let reachCreate = () => {};
    let release = () => {};
    const reachedCreate = new Promise<void>((resolve) => {
      reachCreate = resolve;
    });
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const held = withOrgUpdates({
      create: async (org) => {
        reachCreate();
        await released;
        await ctx.repos.orgUpdates.create(org);
      },
    });
    const first = registerChildOrg(
      held,
      partnerOf(partner.id),
      partner.id,
      registration('Umbrella', [{ email: 'first@umbrella.example', role: 'admin' }]),
    );
    await reachedCreate;

    // Act
    const second = await registerChildOrg(
      ctx,
      partnerOf(partner.id),
      partner.id,
      registration('umbrella', [{ email: 'second@umbrella.example', role: 'admin' }]),
    ).catch((error: unknown) => error);
    release();
    const { org } = await first;

    // Assess
    expect(second).toBeInstanceOf(ConflictError);
    expect((second as ConflictError).message).toContain(org.id);
    expect((await ctx.repos.memberships.listByOrg(org.id)).map((member) => member.email)).toEqual([
      'first@umbrella.example',
    ]);
  });

  it("hides another partner's org and refuses orgs that are not partners", async () => {
    // Prepare
    const { org: mine } = await createPartner(ctx, 'Reseller Five');
    const { org: theirs } = await createPartner(ctx, 'Reseller Six');
    const plain = await createOrg(ctx, 'Plain Co', null);
    const { membership } = await createUserKey(ctx, plain.id, 'admin@plain.example', 'admin');
    const plainAdmin: Principal = {
      kind: 'user',
      orgId: plain.id,
      userId: membership.email,
      role: 'admin',
      scopes: ['*'],
    };

    // Act + Assess
    await expect(registerChildOrg(ctx, partnerOf(mine.id), theirs.id, registration('X'))).rejects.toThrow(
      NotFoundError,
    );
    await expect(registerChildOrg(ctx, plainAdmin, plain.id, registration('Y'))).rejects.toThrow(
      ForbiddenError,
    );
  });
});

describe('inviting users to a child org', () => {
  it('creates new members, keeps same-role members and changes other roles', async () => {
    // Prepare
    const { org: partner } = await createPartner(ctx, 'Reseller Seven');
    const { org: child } = await registerChildOrg(
      ctx,
      partnerOf(partner.id),
      partner.id,
      registration('Umbrella', [{ email: 'keep@umbrella.example', role: 'admin' }]),
    );
    const before = await ctx.repos.memberships.get(child.id, 'keep@umbrella.example');

    // Act
    const memberships = await inviteChildOrgUsers(ctx, partnerOf(partner.id), partner.id, child.id, [
      { email: 'keep@umbrella.example', role: 'admin', name: null },
      { email: 'new@umbrella.example', role: 'user', name: null },
    ]);
    const promoted = await inviteChildOrgUsers(ctx, partnerOf(partner.id), partner.id, child.id, [
      { email: 'NEW@umbrella.example', role: 'admin', name: null },
    ]);

    // Assess
    expect(memberships[0]).toEqual(before);
    expect(memberships[1]).toMatchObject({ email: 'new@umbrella.example', role: 'user' });
    expect(promoted[0]).toMatchObject({ email: 'new@umbrella.example', role: 'admin' });
    expect(await ctx.repos.memberships.listByOrg(child.id)).toHaveLength(2);
  });

  it("answers not found for another partner's child org", async () => {
    // Prepare
    const { org: owner } = await createPartner(ctx, 'Reseller Eight');
    const { org: other } = await createPartner(ctx, 'Reseller Nine');
    const { org: child } = await registerChildOrg(ctx, partnerOf(owner.id), owner.id, registration('Stark'));
    const invite = [{ email: 'x@stark.example', role: 'user' as const, name: null }];

    // Act + Assess
    await expect(inviteChildOrgUsers(ctx, partnerOf(other.id), other.id, child.id, invite)).rejects.toThrow(
      NotFoundError,
    );
    expect(await ctx.repos.memberships.listByOrg(child.id)).toEqual([]);
  });
});

describe('partner settings', () => {
  it('sets the links given and keeps the others', async () => {
    // Prepare
    const { org: partner } = await createPartner(ctx, 'Reseller Ten');
    const { org: child } = await registerChildOrg(ctx, partnerOf(partner.id), partner.id, {
      ...registration('Wayne'),
      offerLinks: { gcp: 'https://console.cloud.google.com/marketplace/product/x' },
    });

    // Act
    const updated = await updatePartnerSettings(ctx, partnerOf(partner.id), child.id, {
      aws: 'https://aws.amazon.com/marketplace/pp/prodview-abc',
    });

    // Assess
    expect(updated.offerLinks).toEqual({
      aws: 'https://aws.amazon.com/marketplace/pp/prodview-abc',
      azure: null,
      gcp: 'https://console.cloud.google.com/marketplace/product/x',
    });
    expect((await ctx.repos.orgs.get(child.id))?.version).toBe(2);
  });
});

describe('authenticating API keys', () => {
  it('resolves a user key to its member principal and a partner key to its partner', async () => {
    // Prepare
    const { org: partner, key: partnerKey } = await createPartner(ctx, 'Reseller Eleven');
    const org = await createOrg(ctx, 'Cyberdyne', partner.id);
    const { key } = await createUserKey(ctx, org.id, 'Admin@Cyberdyne.example', 'support');

    // Act
    const user = await authenticateApiKey(ctx, key.apiKey);
    const partnerPrincipal = await authenticateApiKey(ctx, partnerKey.apiKey);

    // Assess
    expect(user).toEqual({
      kind: 'user',
      orgId: org.id,
      userId: 'admin@cyberdyne.example',
      role: 'support',
      scopes: ['*'],
    });
    expect(partnerPrincipal).toEqual({ kind: 'partner', orgId: partner.id, scopes: ['*'] });
    expect((await ctx.repos.apiKeys.get(key.keyId))?.lastUsedAt).not.toBeNull();
  });

  it('refuses revoked keys, wrong secrets and malformed keys alike', async () => {
    // Prepare
    const org = await createOrg(ctx, 'Tyrell', null);
    const { key } = await createUserKey(ctx, org.id, 'a@tyrell.example', 'admin');
    const { key: revoked } = await createUserKey(ctx, org.id, 'b@tyrell.example', 'admin');
    await revokeKey(ctx, revoked.keyId);
    const wrongSecret = `${key.apiKey.slice(0, -1)}${key.apiKey.endsWith('a') ? 'b' : 'a'}`;

    // Act + Assess
    expect(await authenticateApiKey(ctx, revoked.apiKey)).toBeNull();
    expect(await authenticateApiKey(ctx, wrongSecret)).toBeNull();
    expect(await authenticateApiKey(ctx, 'not-a-key')).toBeNull();
    expect(await authenticateApiKey(ctx, undefined)).toBeNull();
    expect(await authenticateApiKey(ctx, key.apiKey)).not.toBeNull();
  });
});
