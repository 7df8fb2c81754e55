import type { Node } from 'constructs';

/**
 * Which marketplace the purchase processor buys from (DESIGN §9), chosen at synthesis from CDK
 * context so that `cdk deploy` alone decides whether a deployment spends money: `simulated`
 * unless the operator passes `-c marketplace=aws` with the role and its external id.
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
      /** The ExternalId the role's trust policy requires. */
      readonly externalId: string;
    };

/** The CDK context keys (`cdk.json` "context", or `-c key=value`). */
export const marketplaceContextKeys = {
  kind: 'marketplace',
  roleArn: 'marketplaceRoleArn',
  externalId: 'marketplaceExternalId',
} as const;

/** The placeholder the processor replaces with the buying account's id. */
const accountPlaceholder = '{account_id}';

/**
 * A role in the buying account, named without wildcards: the processor's sts:AssumeRole
 * permission is this ARN with the account as `*`, so a wildcard in the name would widen it, and a
 * fixed account would make every org's purchases in that one account.
 */
const roleArnTemplatePattern = /^arn:aws(-cn|-us-gov)?:iam::\{account_id\}:role\/[\w+=,.@/-]{1,512}$/;
/** What STS accepts as an ExternalId. */
const externalIdPattern = /^[\w+=,.@:/-]{2,1224}$/;

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
  const externalId = node.tryGetContext(marketplaceContextKeys.externalId);
  const missing = [
    roleArnTemplate === undefined ? marketplaceContextKeys.roleArn : null,
    externalId === undefined ? marketplaceContextKeys.externalId : null,
  ].filter((key) => key !== null);
  if (missing.length > 0) {
    throw new Error(
      `Context "${marketplaceContextKeys.kind}" is "aws": context ${missing.map((key) => `"${key}"`).join(' and ')} must be set too (-c ${missing.map((key) => `${key}=…`).join(' -c ')})`,
    );
  }
  if (typeof roleArnTemplate !== 'string' || !roleArnTemplatePattern.test(roleArnTemplate)) {
    throw new Error(
      `Context "${marketplaceContextKeys.roleArn}" must be a role ARN with ${accountPlaceholder} as its account and no wildcard, like arn:aws:iam::${accountPlaceholder}:role/commitment-planning-purchaser; got ${JSON.stringify(roleArnTemplate)}`,
    );
  }
  if (typeof externalId !== 'string' || !externalIdPattern.test(externalId)) {
    throw new Error(
      `Context "${marketplaceContextKeys.externalId}" must be 2 to 1224 characters of letters, digits and +=,.@:/-_ (what STS accepts as an ExternalId)`,
    );
  }
  return { kind, roleArnTemplate, externalId };
}

/** The processor's environment for the marketplace (read by shared/runtime/marketplace.ts). */
export function marketplaceEnvironment(config: MarketplaceConfig): Record<string, string> {
  if (config.kind === 'simulated') return { MARKETPLACE: 'simulated' };
  return {
    MARKETPLACE: 'aws',
    MARKETPLACE_ROLE_ARN: config.roleArnTemplate,
    MARKETPLACE_EXTERNAL_ID: config.externalId,
  };
}

/** The roles the processor may assume: the template's ARN in any account. */
export function assumableRoleArns(config: MarketplaceConfig & { kind: 'aws' }): string {
  return config.roleArnTemplate.replaceAll(accountPlaceholder, '*');
}
