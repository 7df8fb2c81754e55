import { APIGatewayClient } from '@aws-sdk/client-api-gateway';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { OAuthContext, OAuthRepositories } from '../app/oauth/oauth-context';
import type { ContextWith, Mailer } from '../app/ports';
import { apiGatewayUsagePlanKeys, type UsagePlanKeys, usagePlanIdByName } from '../auth/usage-plan-keys';
import { sesMailer } from '../mail/ses-mailer';
import { oauthKeys } from './oauth-keys';

/**
 * What the OAuth function runs with beside its own context (current.ts): the issuer and the token signer
 * (oauth-keys.ts: the KMS signer on Lambda, the local key locally) and the mailer that sends
 * sign-in codes. On Lambda the mailer is SES v2 from `MAIL_FROM`, built on first use; the local
 * server installs its outbox. Kept apart from current.ts so that only the OAuth function bundles
 * the SES client.
 */
let mailer: Mailer | undefined;

export function installMailer(installed: Mailer): void {
  mailer = installed;
}

export function oauthContext(base: ContextWith<OAuthRepositories>): OAuthContext {
  const keys = oauthKeys();
  mailer ??= sesMailerFrom(process.env);
  clientThrottles ??= clientThrottlesFrom(process.env);
  return {
    ...base,
    issuer: keys.issuer,
    mailer,
    signer: keys.signer,
    ...(clientThrottles ? { clientThrottles } : {}),
  };
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
  const client = new APIGatewayClient({ region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION });
  let keys: Promise<UsagePlanKeys> | undefined;
  return {
    async register(clientId) {
      keys ??= usagePlanIdByName(client, usagePlanName).then((id) => apiGatewayUsagePlanKeys(client, id));
      await (await keys).registerOAuthClient(clientId);
    },
  };
}

/** The issuer, for the pages (cookie attributes depend on whether it is https). */
export function oauthIssuer(): string {
  return oauthKeys().issuer;
}

function sesMailerFrom(env: NodeJS.ProcessEnv): Mailer {
  const from = env.MAIL_FROM;
  if (!from) throw new Error('MAIL_FROM is not set: the SES-verified address sign-in codes are sent from');
  return sesMailer({ client: new SESv2Client({ region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION }), from });
}
