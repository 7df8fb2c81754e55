import type { ContextWith, Marketplace } from '../app/ports';
import type { ProcessorContext } from '../app/purchase-processing';
import { purchasingCatalog } from '../app/stored-catalog';
import {
  catalogRepository,
  commitmentRepository,
  onboardingRepository,
  orgRepository,
  planRepository,
  purchaseRepository,
  usageRepository,
} from '../store/store';
import { awsFunctionContext, onFirstUse } from './function-context';
import { lambdaPlanComputation } from './lambda-plan-computation';

/**
 * Builds an entry's marketplace; `externalIdOf` reads an org's ExternalId from its onboarding
 * record, and `ctx` reads the org's Azure tenant and sharing (azure-marketplace-environment.ts).
 */
export type MarketplaceFromEnvironment = (
  env: NodeJS.ProcessEnv,
  externalIdOf: (orgId: string) => Promise<string | null>,
  ctx: ContextWith<'onboarding' | 'orgs'>,
) => Marketplace;

/**
 * The purchase processor on AWS (docs/purchases.md): its repositories on the service's table, the
 * marketplace it buys from and the catalog, built on the first invocation. Which marketplace is
 * chosen at synthesis (lib/marketplace-config.ts): each kind has its own processor entry, so the
 * default simulated processor bundles no purchase client, and the aws one carries the EC2, RDS
 * and Savings Plans clients it runs. Plans are recomputed after a purchase completes by the
 * plan-computation function (`PLAN_COMPUTATION_FUNCTION`): the processor bundles no engine. Each entry names how its marketplace is built from the
 * environment (simulated-marketplace-environment.ts, aws-marketplace-environment.ts).
 */
export function awsPurchaseProcessorContext(
  fromEnvironment: MarketplaceFromEnvironment,
): () => ProcessorContext {
  const repositories = awsFunctionContext({
    purchases: purchaseRepository,
    plans: planRepository,
    orgs: orgRepository,
    commitments: commitmentRepository,
    usage: usageRepository,
    // The aws marketplace assumes each org's role with the ExternalId of its onboarding record,
    // and buys Azure lines in the tenant the record names.
    onboarding: onboardingRepository,
    catalog: catalogRepository,
  });
  return onFirstUse(() => {
    const base = repositories();
    const marketplace = fromEnvironment(process.env, (orgId) => onboardedExternalId(base, orgId), base);
    return {
      ...base,
      marketplace,
      catalog: purchasingCatalog(base.repos.catalog),
      planComputation: lambdaPlanComputation(process.env),
    };
  });
}

/** The org's ExternalId from its onboarding record; null before it started onboarding. */
async function onboardedExternalId(ctx: ContextWith<'onboarding'>, orgId: string): Promise<string | null> {
  return (await ctx.repos.onboarding.get(orgId))?.externalId ?? null;
}
