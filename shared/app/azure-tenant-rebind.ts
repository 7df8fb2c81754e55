import { NotFoundError, ValidationError } from '../domain/errors';
import { isTenantGuid } from '../domain/onboarding/consent-answer';
import type { ContextWith } from './ports';

/** What an operator's rebind did (docs/onboarding.md, One tenant, one org). */
export interface TenantRebind {
  readonly tenantId: string;
  readonly fromOrgId: string;
  readonly toOrgId: string;
  readonly subscriptionIds: readonly string[];
  readonly at: string;
  /** Whether the previous org's recorded consent was withdrawn (it no longer reads the tenant). */
  readonly previousConsentWithdrawn: boolean;
}

/**
 * Moves an Azure tenant, with every subscription bound under it, to another org, at a partner's
 * request, keeping an audit item (who, why, from, to). The previous org's proven consent of the
 * tenant is withdrawn, so that neither its checklist nor the usage sync reads the tenant any more;
 * the new org's customer consents again through #20's link (the binding now lets it).
 */
export async function rebindAzureTenant(
  ctx: ContextWith<'azureTenants' | 'onboarding' | 'orgs'>,
  input: {
    readonly tenantId: string;
    readonly toOrgId: string;
    readonly by: string;
    readonly reason: string;
  },
): Promise<TenantRebind> {
  if (!isTenantGuid(input.tenantId)) {
    throw new ValidationError('tenant must be the tenant id (a GUID), as the binding names it', {
      tenant: ['must be a GUID'],
    });
  }
  if (!input.reason.trim()) {
    throw new ValidationError('a rebind needs a reason (it is kept in the audit item)', {
      reason: ['is empty'],
    });
  }
  if (!(await ctx.repos.orgs.get(input.toOrgId)))
    throw new NotFoundError(`Organization ${input.toOrgId} not found`);
  const at = ctx.clock.now().toISOString();
  const moved = await ctx.repos.azureTenants.rebind({ ...input, at });
  if (!moved) throw new NotFoundError(`Azure tenant ${input.tenantId} is bound to no organization`);
  const previousConsentWithdrawn =
    moved.fromOrgId !== input.toOrgId && (await withdrawConsent(ctx, moved.fromOrgId, input.tenantId, at));
  return {
    tenantId: input.tenantId.toLowerCase(),
    toOrgId: input.toOrgId,
    at,
    previousConsentWithdrawn,
    ...moved,
  };
}

async function withdrawConsent(
  ctx: ContextWith<'onboarding'>,
  orgId: string,
  tenantId: string,
  at: string,
): Promise<boolean> {
  const record = await ctx.repos.onboarding.get(orgId);
  const azure = record?.azure;
  if (!record || azure?.consent?.signedInBy?.tenantId.toLowerCase() !== tenantId.toLowerCase()) return false;
  const written = await ctx.repos.onboarding.update(orgId, record.onboardingId, {
    azure: { ...azure, consent: null, signIn: null, verification: null },
    at,
  });
  return written !== null;
}
