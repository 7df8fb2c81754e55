import { type ApiKeyRecord, issueApiKey } from '../auth/api-keys';
import { cloudProviders } from '../domain/cloud-providers';
import { checkDisplayName, displayName } from '../domain/display-names';
import {
  type CommitmentSharing,
  isRenewalHorizonDays,
  MAX_RENEWAL_HORIZON_DAYS,
  type Provider,
} from '../domain/engine';
import { NotFoundError, ValidationError } from '../domain/errors';
import type { Membership, MembershipRole, Organization } from '../domain/orgs';
import { addMembers } from './members';
import { type NewOrganization, registerOrganization } from './organizations';
import { refreshPlans } from './plan-computation';
import type { AppContext } from './ports';

/**
 * Operator actions (bin/admin.ts and the local seed). Operators are trusted: these use cases
 * skip the principal checks of the API, but keep its invariants (name claims, normalized e-mails).
 */

export interface IssuedKey {
  readonly keyId: string;
  /** Shown once; only its hash is stored. */
  readonly apiKey: string;
}

/**
 * An org as operators create it: a name and its place (partner or child), details left empty. The
 * name obeys the API's text rule (shared/domain/display-names.ts): a ValidationError naming `name`.
 */
function bareOrganization(raw: string, parentOrgId: string | null, isPartner: boolean): NewOrganization {
  const checked = displayName(raw);
  if ('problem' in checked) throw new ValidationError(`name ${checked.problem}`, { name: [checked.problem] });
  return {
    name: checked.name,
    parentOrgId,
    isPartner,
    partnerSubscriptionId: null,
    domain: null,
    primaryAddress: null,
    offerLinks: {},
    members: [],
  };
}

export async function createPartner(
  ctx: AppContext,
  name: string,
): Promise<{ readonly org: Organization; readonly key: IssuedKey }> {
  const { org } = await registerOrganization(ctx, bareOrganization(name, null, true));
  const key = await storeKey(
    ctx,
    issueApiKey({ kind: 'partner', orgId: org.id }, ctx.clock.now().toISOString()),
  );
  return { org, key };
}

export async function createOrg(
  ctx: AppContext,
  name: string,
  partnerOrgId: string | null,
): Promise<Organization> {
  if (partnerOrgId) {
    const partner = await ctx.repos.orgs.get(partnerOrgId);
    if (!partner) throw new NotFoundError(`Partner organization ${partnerOrgId} not found`);
    if (!partner.isPartner) {
      throw new ValidationError(`Organization ${partnerOrgId} is not a partner`, {
        partner: ['not a partner org'],
      });
    }
  }
  const { org } = await registerOrganization(ctx, bareOrganization(name, partnerOrgId, false));
  return org;
}

/** Issues a user key, making the user a member with `role` first (creating user and membership if needed). */
export async function createUserKey(
  ctx: AppContext,
  orgId: string,
  email: string,
  role: MembershipRole,
): Promise<{ readonly membership: Membership; readonly key: IssuedKey }> {
  const checked = checkDisplayName(email);
  if (!checked.ok) throw new ValidationError(`email ${checked.reason}`, { email: [checked.reason] });
  if (!(await ctx.repos.orgs.get(orgId))) throw new NotFoundError(`Organization ${orgId} not found`);
  const [membership] = await addMembers(ctx, orgId, [{ email, role, name: null }]);
  if (!membership) throw new Error('addMembers answered no membership for one invite');
  const owner = { kind: 'user', orgId, email: membership.email } as const;
  const key = await storeKey(ctx, issueApiKey(owner, ctx.clock.now().toISOString()));
  return { membership, key };
}

export async function revokeKey(ctx: AppContext, keyId: string): Promise<ApiKeyRecord> {
  return ctx.repos.apiKeys.revoke(keyId, ctx.clock.now().toISOString());
}

/**
 * Sets whose usage the org's commitments cover (docs/plan-engine.md, Sharing scope), then makes the plans of
 * every provider with plan inputs stale and computes them again. A provider whose import is
 * running is left to that import, whose end computes its plans with the new setting. Setting
 * the value the org has already recomputes too: a run interrupted half-way can be run again.
 */
export async function setCommitmentSharing(
  ctx: AppContext,
  orgId: string,
  sharing: CommitmentSharing,
): Promise<{ readonly org: Organization; readonly recomputed: readonly Provider[] }> {
  const at = ctx.clock.now().toISOString();
  const org = await ctx.repos.orgUpdates.setCommitmentSharing(orgId, sharing, at);
  return { org, recomputed: await recomputePlans(ctx, orgId, at) };
}

/**
 * Sets the org's renewal horizon (docs/plan-engine.md, Time is the plan's): the days before its
 * end in which a plan renews an owned commitment instead of counting it. Recomputes the org's
 * plans as setCommitmentSharing does. A ValidationError names the field when `days` is not an
 * integer in [0, MAX_RENEWAL_HORIZON_DAYS].
 */
export async function setRenewalHorizonDays(
  ctx: AppContext,
  orgId: string,
  days: number,
): Promise<{ readonly org: Organization; readonly recomputed: readonly Provider[] }> {
  if (!isRenewalHorizonDays(days)) {
    throw new ValidationError('The renewal horizon is out of range', {
      renewal_horizon_days: [`must be an integer in [0, ${MAX_RENEWAL_HORIZON_DAYS}]`],
    });
  }
  const at = ctx.clock.now().toISOString();
  const org = await ctx.repos.orgUpdates.setRenewalHorizonDays(orgId, days, at);
  return { org, recomputed: await recomputePlans(ctx, orgId, at) };
}

/**
 * After a setting plans are computed with changed: makes the plans of every provider with plan
 * inputs stale and computes them again; answers those providers.
 */
async function recomputePlans(ctx: AppContext, orgId: string, at: string): Promise<Provider[]> {
  const raised = await Promise.all(
    cloudProviders.map((provider) => ctx.repos.usage.raisePlanInputsVersion(orgId, provider, at)),
  );
  const recomputed = cloudProviders.filter((_, index) => raised[index]);
  for (const provider of recomputed) await refreshPlans(ctx, orgId, provider);
  return recomputed;
}

export async function listOrgs(ctx: AppContext): Promise<Organization[]> {
  return ctx.repos.orgs.list();
}

async function storeKey(ctx: AppContext, issued: ReturnType<typeof issueApiKey>): Promise<IssuedKey> {
  await ctx.repos.apiKeys.create(issued.record);
  return { keyId: issued.record.keyId, apiKey: issued.apiKey };
}
