import type {
  AppContext,
  CloudVerifier,
  Mailer,
  PurchaseQueue,
  WithPlanComputation,
} from '../shared/app/ports';
import type { RequestThrottle } from '../shared/app/ports/request-throttle';
import { purchasingCatalog } from '../shared/app/stored-catalog';
import type { FunctionGroup } from '../shared/contract/operation-contract';
import type { ProxyHandler } from '../shared/http/group-handler';
import type { OAuthKeys } from '../shared/runtime/oauth-keys';
import type { AzureConsentRuntime } from '../shared/runtime/onboarding-azure-consent';

/**
 * What the local server's functions run with, in place of each function's AWS composition: the
 * local runtime's context (every repository, on the local table, computing plans in this
 * process), the local OAuth keys (the server's base URL, the local signer), the outbox mailer and
 * the process's own sign-in code key, the Bearer throttle on the local table, the onboarding on
 * the simulated cloud, and the in-process purchase queue.
 */
export interface LocalDependencies {
  readonly ctx: WithPlanComputation<AppContext>;
  readonly oauthKeys: OAuthKeys;
  /** The server's base URL (the OpenAPI document's `servers`). */
  readonly publicBaseUrl: string;
  readonly mailer: Mailer;
  /** The key sign-in codes are stored keyed with. */
  readonly signInCodeKey: string;
  readonly requestThrottle: RequestThrottle;
  readonly onboarding: AzureConsentRuntime;
  readonly verifier: CloudVerifier;
  readonly purchaseQueue: PurchaseQueue;
}

/**
 * A group's handler, built by the group's own factory (`functions/<group>/<group>-handler.ts`, the
 * one its Lambda handler calls) with the local dependencies. Loaded on the group's first request,
 * as Lambda loads a function on its first invocation.
 */
export async function localGroupHandler(
  group: FunctionGroup,
  local: LocalDependencies,
): Promise<ProxyHandler> {
  const { ctx, oauthKeys } = local;
  const requestThrottle = () => local.requestThrottle;
  switch (group) {
    case 'oauth-sign-in': {
      const { createOAuthSignInHandler } = await import('../functions/oauth-sign-in/oauth-sign-in-handler');
      const signInCodeKey = () => Promise.resolve(local.signInCodeKey);
      const signIn = { ...ctx, issuer: oauthKeys.issuer, mailer: local.mailer, signInCodeKey };
      return createOAuthSignInHandler(() => signIn);
    }
    case 'oauth-token': {
      const { createOAuthTokenHandler } = await import('../functions/oauth-token/oauth-token-handler');
      const tokens = { ...ctx, issuer: oauthKeys.issuer, signer: oauthKeys.signer };
      return createOAuthTokenHandler(() => tokens);
    }
    case 'oauth-registration': {
      const { createOAuthRegistrationHandler } = await import(
        '../functions/oauth-registration/oauth-registration-handler'
      );
      return createOAuthRegistrationHandler(() => ctx);
    }
    case 'jwks': {
      const { createJwksHandler } = await import('../functions/jwks/jwks-handler');
      return createJwksHandler(() => oauthKeys);
    }
    case 'openapi': {
      const { createOpenApiHandler } = await import('../functions/openapi/openapi-handler');
      return createOpenApiHandler(() => local.publicBaseUrl);
    }
    case 'plans': {
      const { createPlansHandler } = await import('../functions/plans/plans-handler');
      return createPlansHandler(() => ctx, requestThrottle);
    }
    case 'plan-coverage': {
      const { createPlanCoverageHandler } = await import('../functions/plan-coverage/plan-coverage-handler');
      return createPlanCoverageHandler(() => ctx, requestThrottle);
    }
    case 'commitments-chart': {
      const { createCommitmentsChartHandler } = await import(
        '../functions/commitments-chart/commitments-chart-handler'
      );
      return createCommitmentsChartHandler(() => ctx, requestThrottle);
    }
    case 'plan-purchases': {
      const { createPlanPurchasesHandler } = await import(
        '../functions/plan-purchases/plan-purchases-handler'
      );
      const purchasing = {
        ...ctx,
        purchaseQueue: local.purchaseQueue,
        catalog: purchasingCatalog(ctx.repos.catalog),
      };
      return createPlanPurchasesHandler(() => purchasing, requestThrottle);
    }
    case 'partner-settings': {
      const { createPartnerSettingsHandler } = await import(
        '../functions/partner-settings/partner-settings-handler'
      );
      return createPartnerSettingsHandler(() => ctx, requestThrottle);
    }
    case 'partner-purchase-plans': {
      const { createPartnerPurchasePlansHandler } = await import(
        '../functions/partner-purchase-plans/partner-purchase-plans-handler'
      );
      return createPartnerPurchasePlansHandler(() => ctx, requestThrottle);
    }
    case 'partner-orgs': {
      const { createPartnerOrgsHandler } = await import('../functions/partner-orgs/partner-orgs-handler');
      return createPartnerOrgsHandler(() => ctx, requestThrottle);
    }
    case 'onboarding': {
      const { createOnboardingHandler } = await import('../functions/onboarding/onboarding-handler');
      const { settings, publicApiUrl } = local.onboarding;
      const onboarding = { ...ctx, onboarding: settings, publicApiUrl };
      return createOnboardingHandler(() => onboarding, requestThrottle);
    }
    case 'onboarding-azure-consent': {
      const { createOnboardingAzureConsentHandler } = await import(
        '../functions/onboarding-azure-consent/onboarding-azure-consent-handler'
      );
      const { settings, publicApiUrl, tenantSignIn } = local.onboarding;
      const consent = { ...ctx, onboarding: settings, publicApiUrl, tenantSignIn };
      return createOnboardingAzureConsentHandler(() => consent);
    }
    case 'onboarding-aws-verify': {
      const { createOnboardingAwsVerifyHandler } = await import(
        '../functions/onboarding-aws-verify/onboarding-aws-verify-handler'
      );
      const verification = { ...ctx, verifier: local.verifier };
      return createOnboardingAwsVerifyHandler(() => verification, requestThrottle);
    }
    case 'onboarding-azure-verify': {
      const { createOnboardingAzureVerifyHandler } = await import(
        '../functions/onboarding-azure-verify/onboarding-azure-verify-handler'
      );
      const verification = { ...ctx, verifier: local.verifier };
      return createOnboardingAzureVerifyHandler(() => verification, requestThrottle);
    }
  }
}
