import { bundledCatalog } from '../app/bundled-catalog';
import { type ContextWith, hasPlanComputation, type PlanComputation } from '../app/ports';
import type { ProcessorContext, ProcessorRepository } from '../app/purchase-processing';
import type { Marketplace } from '../cloud/marketplace/marketplace';
import { lambdaPlanComputation } from './lambda-plan-computation';

/**
 * The marketplace the purchase processor buys from (DESIGN §9). Which one is chosen at synthesis
 * (lib/marketplace-config.ts): each kind has its own processor entry, so the default simulated
 * processor bundles no purchase client, and the aws one carries the EC2, RDS and Savings Plans
 * clients it runs. Each entry builds its marketplace from the environment on first use
 * (simulated-marketplace-environment.ts, aws-marketplace-environment.ts); the local runtime and
 * tests install theirs first.
 */
let installed: Marketplace | undefined;
let onLambda: PlanComputation | undefined;

export function installMarketplace(marketplace: Marketplace): void {
  installed = marketplace;
}

/** Builds an entry's marketplace; `externalIdOf` reads an org's ExternalId from its onboarding record. */
export type MarketplaceFromEnvironment = (
  env: NodeJS.ProcessEnv,
  externalIdOf: (orgId: string) => Promise<string | null>,
) => Marketplace;

/** What the purchase processor runs with: its own context (current.ts), the marketplace and the catalog. */
export function processorContext(
  base: ContextWith<ProcessorRepository | 'onboarding'>,
  fromEnvironment: MarketplaceFromEnvironment,
): ProcessorContext {
  installed ??= fromEnvironment(process.env, (orgId) => onboardedExternalId(base, orgId));
  // The local runtime and tests compute plans in their process; on Lambda the plan-computation
  // function does (the processor bundles no engine).
  if (hasPlanComputation(base)) {
    return {
      ...base,
      marketplace: installed,
      catalog: bundledCatalog,
      planComputation: base.planComputation,
    };
  }
  onLambda ??= lambdaPlanComputation(process.env);
  return { ...base, marketplace: installed, catalog: bundledCatalog, planComputation: onLambda };
}

/** The org's ExternalId from its onboarding record; null before it started onboarding. */
async function onboardedExternalId(ctx: ContextWith<'onboarding'>, orgId: string): Promise<string | null> {
  return (await ctx.repos.onboarding.get(orgId))?.externalId ?? null;
}
