import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import type { OAuthContext } from '../app/oauth/oauth-context';
import { apiGatewayUsagePlanKeys, type UsagePlanKeys, usagePlanIdByName } from '../auth/usage-plan-keys';
import { configuredRegion } from './aws';

/**
 * What the registration function runs with beside its own context (current.ts): the throttle
 * buckets of new clients. A module of its own so that only that function bundles the API Gateway
 * client.
 */
export function withClientThrottles<Base extends object>(
  base: Base,
): Base & Pick<OAuthContext, 'clientThrottles'> {
  clientThrottles ??= clientThrottlesFrom(process.env);
  return { ...base, ...(clientThrottles ? { clientThrottles } : {}) };
}

/**
 * On AWS, `USAGE_PLAN_NAME` (set by CDK): each registered client's tokens get a key in the
 * tenants' usage plan, found by its name on first use. Unset (locally), nothing to register: the
 * local server throttles by the identifier alone.
 */
let clientThrottles: OAuthContext['clientThrottles'] | null | undefined;

function clientThrottlesFrom(env: NodeJS.ProcessEnv): OAuthContext['clientThrottles'] | null {
  const usagePlanName = env.USAGE_PLAN_NAME?.trim();
  if (!usagePlanName) return null;
  const client = new APIGatewayClient({ region: configuredRegion(env) });
  let keys: Promise<UsagePlanKeys> | undefined;
  return {
    async register(clientId) {
      keys ??= usagePlanIdByName(client, usagePlanName).then((id) => apiGatewayUsagePlanKeys(client, id));
      await (await keys).registerOAuthClient(clientId);
    },
  };
}
