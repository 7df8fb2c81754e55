import {
  type ConsentState,
  consentStateLifetimeSeconds,
  newConsentNonce,
  signConsentState,
  verifyConsentState,
} from '../auth/consent-state';
import { ConflictError } from '../domain/errors';
import { isTenantGuid, sameTenant, storedConsentError } from '../domain/onboarding/consent-answer';
import type { AzureOnboarding, OnboardingRecord } from '../domain/onboarding/onboarding-record';
import { TenantSignInError } from '../domain/onboarding/tenant-sign-in-error';
import type { Principal } from '../domain/principal';
import { ensureOnboarding, loadOnboardingOrgFor, type OnboardingContext } from './onboarding';
import type { ContextWith } from './ports';
import type { TenantSignIn } from './ports/azure-tenants';

/**
 * The Azure admin consent (docs/onboarding.md, Azure consent): #20's link to Microsoft's
 * admin-consent page, then the callback in two steps. Microsoft's redirect proves nothing (anyone
 * can type it), so the first step only starts an OpenID Connect sign-in of the tenant's user; the
 * second redeems its code and records the consent only when the ID token proves an administrator
 * of that tenant who may grant tenant-wide consent, and binds the tenant to the org (one tenant,
 * one org).
 */

/** What the consent's use cases need: onboarding's, the sign-in and the tenant bindings. */
export type AzureConsentContext = AzureAuthUrlContext & { readonly tenantSignIn: TenantSignIn };

/** #20's: onboarding's and the tenant bindings (a tenant another org holds is refused). */
export type AzureAuthUrlContext = OnboardingContext & ContextWith<'onboarding' | 'orgs' | 'azureTenants'>;

const boundElsewhere = (what: 'tenant' | 'subscription', id: string) =>
  `Azure ${what} ${id} is connected to another organization; one ${what} belongs to one organization: ask the operator to move it`;

/** #20: the admin-consent URL for the org's Azure tenant, with a signed state bound to the onboarding. */
export async function createAzureAuthUrl(
  ctx: AzureAuthUrlContext,
  principal: Principal,
  orgId: string,
  input: { readonly tenantId: string; readonly subscriptionId: string; readonly callbackUrl: string },
): Promise<string> {
  const org = await loadOnboardingOrgFor(ctx, principal, orgId);
  // A tenant named by a domain is checked when its id comes back (the callback's second step).
  const owners = await ctx.repos.azureTenants.owners(
    isTenantGuid(input.tenantId) ? input.tenantId : '-',
    input.subscriptionId,
  );
  if (owners.tenant !== null && owners.tenant !== org.id) {
    throw new ConflictError(boundElsewhere('tenant', input.tenantId));
  }
  if (owners.subscription !== null && owners.subscription !== org.id) {
    throw new ConflictError(boundElsewhere('subscription', input.subscriptionId));
  }
  const record = await ensureOnboarding(ctx, org.id);
  const now = ctx.clock.now();
  const sameTarget =
    record.azure?.tenantId === input.tenantId && record.azure.subscriptionId === input.subscriptionId;
  // Each link replaces the one before (and any sign-in under way): the callback accepts the
  // latest link only, once.
  const nonce = newConsentNonce();
  await ctx.repos.onboarding.update(org.id, record.onboardingId, {
    provider: 'azure',
    azure: {
      tenantId: input.tenantId,
      subscriptionId: input.subscriptionId,
      consent: sameTarget ? (record.azure?.consent ?? null) : null,
      consentNonce: nonce,
      signIn: null,
      verification: sameTarget ? (record.azure?.verification ?? null) : null,
    },
    at: now.toISOString(),
  });
  const state = await signedState(ctx, {
    orgId: org.id,
    onboardingId: record.onboardingId,
    tenantId: input.tenantId,
    subscriptionId: input.subscriptionId,
    nonce,
  });
  const params = new URLSearchParams({
    client_id: ctx.onboarding.azureClientId,
    scope: 'https://management.azure.com/.default',
    redirect_uri: input.callbackUrl,
    state,
  });
  const tenant = encodeURIComponent(input.tenantId);
  return `${ctx.onboarding.azureAuthority}/${tenant}/v2.0/adminconsent?${params.toString()}`;
}

async function signedState(
  ctx: AzureAuthUrlContext,
  state: Omit<ConsentState, 'expiresAt'>,
): Promise<string> {
  const expiresAt = Math.floor(ctx.clock.now().getTime() / 1000) + consentStateLifetimeSeconds;
  return signConsentState({ ...state, expiresAt }, await ctx.onboarding.stateSecret());
}

/** What the identity platform sent back to the callback (query parameters), and where it is. */
export interface ConsentCallback {
  readonly state: string | undefined;
  readonly adminConsent: string | undefined;
  readonly tenant: string | undefined;
  readonly code: string | undefined;
  readonly error: string | undefined;
  readonly errorDescription: string | undefined;
  /** The callback's own URL (the redirect URI of both steps). */
  readonly callbackUrl: string;
}

export type ConsentOutcome =
  | { readonly outcome: 'sign_in'; readonly url: string }
  | { readonly outcome: 'granted'; readonly tenantId: string }
  | { readonly outcome: 'refused'; readonly reason: string }
  | { readonly outcome: 'invalid'; readonly reason: string; readonly code?: TenantSignInError['code'] }
  | { readonly outcome: 'conflict'; readonly reason: string };

const linkNoLongerValid: ConsentOutcome = {
  outcome: 'invalid',
  reason: 'This consent link is no longer valid: ask your partner for a new one.',
};

/**
 * The public consent callback. A state that does not verify or has expired, a link or sign-in
 * already used or replaced by a newer link, a tenant other than the link's: the link is no longer
 * valid, and nothing changes. Otherwise, after Microsoft's admin-consent redirect (`admin_consent`,
 * `tenant`), it starts the sign-in; after the sign-in (`code`), it finishes it.
 */
export async function completeAzureConsent(
  ctx: AzureConsentContext,
  callback: ConsentCallback,
): Promise<ConsentOutcome> {
  const state: ConsentState | null = callback.state
    ? verifyConsentState(callback.state, await ctx.onboarding.stateSecret(), ctx.clock.now())
    : null;
  if (!state) return linkNoLongerValid;
  const record = await ctx.repos.onboarding.get(state.orgId);
  const azure = record?.azure;
  if (
    !record ||
    !azure ||
    record.onboardingId !== state.onboardingId ||
    azure.tenantId !== state.tenantId ||
    azure.subscriptionId !== state.subscriptionId
  ) {
    return linkNoLongerValid;
  }
  if (azure.signIn && azure.signIn.stateNonce === state.nonce) {
    return finishSignIn(ctx, callback, record, azure, state);
  }
  if (azure.consentNonce === state.nonce) return startSignIn(ctx, callback, record, azure, state);
  return linkNoLongerValid;
}

/** Step one: Microsoft's admin-consent answer. A refusal is recorded; a grant starts the sign-in. */
async function startSignIn(
  ctx: AzureConsentContext,
  callback: ConsentCallback,
  record: OnboardingRecord,
  azure: AzureOnboarding,
  state: ConsentState,
): Promise<ConsentOutcome> {
  const now = ctx.clock.now().toISOString();
  const granted = callback.error === undefined && callback.adminConsent?.toLowerCase() === 'true';
  if (!sameTenant(callback.tenant, state.tenantId, granted)) return linkNoLongerValid;
  if (!granted) {
    const error = storedConsentError(callback.error, callback.errorDescription);
    const consumed = await ctx.repos.onboarding.update(state.orgId, state.onboardingId, {
      azure: { ...azure, consent: { granted: false, error, at: now }, consentNonce: null, signIn: null },
      at: now,
      consumingConsentNonce: state.nonce,
    });
    // Another callback with the same link consumed it between the read and this write.
    return consumed ? { outcome: 'refused', reason: error } : linkNoLongerValid;
  }
  // The sign-in is to the tenant's id: the one the link named, or the one Microsoft answered for
  // a domain name (sameTenant accepts only an id for it), which the ID token then proves.
  const tenantId = isTenantGuid(state.tenantId) ? state.tenantId : (callback.tenant as string);
  const conflict = await bindingConflict(ctx, record.orgId, tenantId, azure.subscriptionId);
  if (conflict) return conflict;
  const stateNonce = newConsentNonce();
  let started: Awaited<ReturnType<TenantSignIn['begin']>>;
  try {
    started = await ctx.tenantSignIn.begin({
      tenantId,
      redirectUri: callback.callbackUrl,
      state: await signedState(ctx, { ...state, nonce: stateNonce }),
    });
  } catch (error) {
    // The link stays valid: the customer may open it again once the identity platform answers.
    if (error instanceof TenantSignInError) return signInRefusal(error, 'Try the link again later.');
    throw error;
  }
  const consumed = await ctx.repos.onboarding.update(state.orgId, state.onboardingId, {
    azure: {
      ...azure,
      consentNonce: null,
      signIn: { stateNonce, tenantId, nonce: started.nonce, codeVerifier: started.codeVerifier },
    },
    at: now,
    consumingConsentNonce: state.nonce,
  });
  return consumed ? { outcome: 'sign_in', url: started.url } : linkNoLongerValid;
}

/**
 * Step two: the sign-in's answer. The consent is recorded only when the ID token proves an
 * administrator of the tenant; any failure spends the sign-in and records nothing else.
 */
async function finishSignIn(
  ctx: AzureConsentContext,
  callback: ConsentCallback,
  record: OnboardingRecord,
  azure: AzureOnboarding,
  state: ConsentState,
): Promise<ConsentOutcome> {
  const signIn = azure.signIn as NonNullable<AzureOnboarding['signIn']>;
  // One callback redeems the code: of callbacks racing with one answer, the others find it claimed.
  const claimed = await ctx.repos.onboarding.update(state.orgId, state.onboardingId, {
    azure: { ...azure, signIn: { ...signIn, claimed: true } },
    at: ctx.clock.now().toISOString(),
    claimingSignInNonce: signIn.stateNonce,
  });
  if (!claimed) return linkNoLongerValid;
  const pending = claimed.azure as AzureOnboarding;
  const spend = () =>
    ctx.repos.onboarding.update(state.orgId, state.onboardingId, {
      azure: { ...pending, signIn: null },
      at: ctx.clock.now().toISOString(),
      consumingSignInNonce: signIn.stateNonce,
    });
  const refuse = async (error: TenantSignInError): Promise<ConsentOutcome> => {
    await spend();
    return signInRefusal(error, 'Ask your partner for a new link.');
  };
  if (callback.error !== undefined || !callback.code) {
    return refuse(
      new TenantSignInError('sign_in_refused', storedConsentError(callback.error, callback.errorDescription)),
    );
  }
  let admin: Awaited<ReturnType<TenantSignIn['finish']>>;
  try {
    admin = await ctx.tenantSignIn.finish({
      tenantId: signIn.tenantId,
      code: callback.code,
      redirectUri: callback.callbackUrl,
      codeVerifier: signIn.codeVerifier,
      nonce: signIn.nonce,
      firstUse: (tokenId, expiresAt) => ctx.repos.azureTenants.firstUseOfIdToken(tokenId, expiresAt),
    });
  } catch (error) {
    if (error instanceof TenantSignInError) return refuse(error);
    throw error;
  }
  const conflict = await ctx.repos.azureTenants.bind({
    orgId: record.orgId,
    tenantId: admin.tenantId,
    subscriptionId: azure.subscriptionId,
    at: ctx.clock.now().toISOString(),
  });
  if (conflict) {
    await spend();
    return conflictOutcome(conflict, conflict === 'tenant' ? admin.tenantId : azure.subscriptionId);
  }
  const at = ctx.clock.now().toISOString();
  const recorded = await ctx.repos.onboarding.update(state.orgId, state.onboardingId, {
    azure: {
      ...pending,
      signIn: null,
      consent: {
        granted: true,
        error: null,
        at,
        signedInBy: {
          tenantId: admin.tenantId,
          objectId: admin.objectId,
          roleId: admin.role.id,
          tokenId: admin.tokenId,
        },
      },
    },
    at,
    consumingSignInNonce: signIn.stateNonce,
  });
  return recorded ? { outcome: 'granted', tenantId: admin.tenantId } : linkNoLongerValid;
}

function signInRefusal(error: TenantSignInError, then: string): ConsentOutcome {
  return {
    outcome: 'invalid',
    code: error.code,
    reason: `The sign-in did not prove an administrator of the tenant (${error.code}): ${error.message}. ${then}`,
  };
}

async function bindingConflict(
  ctx: AzureConsentContext,
  orgId: string,
  tenantId: string,
  subscriptionId: string,
): Promise<ConsentOutcome | null> {
  const owners = await ctx.repos.azureTenants.owners(tenantId, subscriptionId);
  if (owners.tenant !== null && owners.tenant !== orgId) return conflictOutcome('tenant', tenantId);
  if (owners.subscription !== null && owners.subscription !== orgId) {
    return conflictOutcome('subscription', subscriptionId);
  }
  return null;
}

function conflictOutcome(what: 'tenant' | 'subscription', id: string): ConsentOutcome {
  return { outcome: 'conflict', reason: `${boundElsewhere(what, id)}. Nothing was recorded.` };
}
