import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { OAuthContext } from '../app/oauth/oauth-context';
import type { Mailer } from '../app/ports';
import { sesMailer } from '../mail/ses-mailer';
import { configuredRegion } from './aws';
import { oauthIssuer } from './oauth-keys';

/**
 * What the sign-in function (authorize, the sign-in and consent pages) runs with beside its own
 * context (current.ts): the issuer, and the mailer that sends sign-in codes. On Lambda the mailer
 * is SES v2 from `MAIL_FROM`, built on first use; the local server installs its outbox. A module
 * of its own so that only the sign-in function bundles the SES client; it signs nothing, so it
 * takes the issuer alone and bundles no KMS client either.
 */
let mailer: Mailer | undefined;

export function installMailer(installed: Mailer): void {
  mailer = installed;
}

export function withSignInMail<Base extends object>(
  base: Base,
): Base & Pick<OAuthContext, 'issuer' | 'mailer'> {
  mailer ??= sesMailerFrom(process.env);
  return { ...base, issuer: oauthIssuer(), mailer };
}

function sesMailerFrom(env: NodeJS.ProcessEnv): Mailer {
  const from = env.MAIL_FROM;
  if (!from) throw new Error('MAIL_FROM is not set: the SES-verified address sign-in codes are sent from');
  return sesMailer({ client: new SESv2Client({ region: configuredRegion(env) }), from });
}
