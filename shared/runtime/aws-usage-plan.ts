import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { apiGatewayUsagePlanKeys, type UsagePlanKeys } from '../auth/usage-plan-keys';
import type { AwsConfig } from './aws';

/**
 * The operator's side of per-key throttling (bin/admin.ts): the tenants' usage plan named by
 * `USAGE_PLAN_ID` (the API stack's `TenantUsagePlanId` output), or null when it is not set. A
 * module of its own, so that only the CLI loads it: no function carries the API Gateway client.
 */
export function createAwsUsagePlanKeys(env: NodeJS.ProcessEnv, config: AwsConfig): UsagePlanKeys | null {
  const usagePlanId = env.USAGE_PLAN_ID?.trim();
  if (!usagePlanId) return null;
  return apiGatewayUsagePlanKeys(new APIGatewayClient({ region: config.region }), usagePlanId);
}
