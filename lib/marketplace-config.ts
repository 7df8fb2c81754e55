import type { Node } from 'constructs';

/**
 * Which marketplace the purchase processor buys from (docs/purchases.md), chosen at synthesis from CDK
 * context so that `cdk deploy` alone decides whether a deployment spends money: `simulated`
 * unless the operator passes `-c marketplace=aws` with the role. The ExternalId the role's trust
 * requires is the org's own (its onboarding record), read by the processor per purchase.
 */
export type MarketplaceConfig =
  | { readonly kind: 'simulated' }
  | {
      readonly kind: 'aws';
      /**
       * `arn:aws:iam::{account_id}:role/<name>`: the role each buying account provides; the
       * onboarding template creates it as `commitment-planning-purchaser` (`onboardingRoleName`).
       */
      readonly roleArnTemplate: string;
    };

/** The CDK context keys (`cdk.json` "context", or `-c key=value`). */
export const marketplaceContextKeys = {
  kind: 'marketplace',
  roleArn: 'marketplaceRoleArn',
} as const;

/** The placeholder the processor replaces with the buying account's id. */
const accountPlaceholder = '{account_id}';

/**
 * A role in the buying account, named without wildcards: the processor's sts:AssumeRole
 * permission is this ARN with the account as `*`, so a wildcard in the name would widen it, and a
 * fixed account would make every org's purchases in that one account.
 */
const roleArnTemplatePattern = /^arn:aws(-cn|-us-gov)?:iam::\{account_id\}:role\/[\w+=,.@/-]{1,512}$/;

/** Reads and checks the marketplace context; synthesis stops with the reason on a bad value. */
export function marketplaceFromContext(node: Node): MarketplaceConfig {
  const kind = node.tryGetContext(marketplaceContextKeys.kind) ?? 'simulated';
  if (kind === 'simulated') return { kind };
  if (kind !== 'aws') {
    throw new Error(
      `Context "${marketplaceContextKeys.kind}" must be "simulated" (the default) or "aws", not ${JSON.stringify(kind)}`,
    );
  }
  const roleArnTemplate = node.tryGetContext(marketplaceContextKeys.roleArn);
  if (roleArnTemplate === undefined) {
    throw new Error(
      `Context "${marketplaceContextKeys.kind}" is "aws": context "${marketplaceContextKeys.roleArn}" must be set too (-c ${marketplaceContextKeys.roleArn}=…)`,
    );
  }
  if (typeof roleArnTemplate !== 'string' || !roleArnTemplatePattern.test(roleArnTemplate)) {
    throw new Error(
      `Context "${marketplaceContextKeys.roleArn}" must be a role ARN with ${accountPlaceholder} as its account and no wildcard, like arn:aws:iam::${accountPlaceholder}:role/commitment-planning-purchaser; got ${JSON.stringify(roleArnTemplate)}`,
    );
  }
  return { kind, roleArnTemplate };
}

/** The processor's environment for the marketplace (read by shared/runtime/marketplace.ts). */
export function marketplaceEnvironment(config: MarketplaceConfig): Record<string, string> {
  if (config.kind === 'simulated') return { MARKETPLACE: 'simulated' };
  return {
    MARKETPLACE: 'aws',
    MARKETPLACE_ROLE_ARN: config.roleArnTemplate,
  };
}

/** The roles the processor may assume: the template's ARN in any account. */
export function assumableRoleArns(config: MarketplaceConfig & { kind: 'aws' }): string {
  return config.roleArnTemplate.replaceAll(accountPlaceholder, '*');
}
