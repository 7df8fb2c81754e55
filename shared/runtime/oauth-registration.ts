import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import type { OAuthContext } from '../app/oauth/oauth-context';
import { apiGatewayUsagePlanKeys, type UsagePlanKeys, usagePlanIdByName } from '../auth/usage-plan-keys';
import { oauthRepository } from '../store/store';
import { configuredRegion } from './aws';
import { awsFunctionContext, onFirstUse } from './function-context';

const repositories = awsFunctionContext({ oauth: oauthRepository });

/**
 * The registration function on AWS: its repository on the service's table and the throttle
 * buckets of new clients, built on the first invocation. A module of its own so that only that
 * function bundles the API Gateway client.
 */
export const awsOAuthRegistrationContext = onFirstUse(() => {
  const clientThrottles = clientThrottlesFrom(process.env);
  return { ...repositories(), ...(clientThrottles ? { clientThrottles } : {}) };
});

/**
 * On AWS, `USAGE_PLAN_NAME` (set by CDK): each registered client's tokens get a key in the
 * tenants' usage plan, found by its name on first use. Unset (locally), nothing to register: the
 * local server throttles by the identifier alone.
 */
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
