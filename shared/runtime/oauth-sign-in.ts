import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { OAuthContext } from '../app/oauth/oauth-context';
import type { Mailer } from '../app/ports';
import { sesMailer } from '../mail/ses-mailer';
import { configuredRegion } from './aws';
import { oauthIssuer } from './oauth-keys';
import { secretsManagerSecret } from './secrets-manager-secret';

/**
 * What the sign-in function (authorize, the sign-in and consent pages) runs with beside its own
 * context (current.ts): the issuer, the mailer that sends sign-in codes and the key their stored
 * HMACs are made with. On Lambda the mailer is SES v2 from `MAIL_FROM`, built on first use, and the
 * key the Secrets Manager secret `SIGN_IN_CODE_SECRET_ARN`; the local server installs its outbox
 * and a key it generates. A module
 * of its own so that only the sign-in function bundles the SES client; it signs nothing, so it
 * takes the issuer alone and bundles no KMS client either.
 */
let mailer: Mailer | undefined;
let signInCodeKey: (() => Promise<string>) | undefined;

export function installMailer(installed: Mailer): void {
  mailer = installed;
}

export function installSignInCodeKey(key: string): void {
  signInCodeKey = () => Promise.resolve(key);
}

export function withSignInMail<Base extends object>(
  base: Base,
): Base & Pick<OAuthContext, 'issuer' | 'mailer' | 'signInCodeKey'> {
  mailer ??= sesMailerFrom(process.env);
  signInCodeKey ??= signInCodeKeyFrom(process.env);
  return { ...base, issuer: oauthIssuer(), mailer, signInCodeKey };
}

function signInCodeKeyFrom(env: NodeJS.ProcessEnv): () => Promise<string> {
  const arn = env.SIGN_IN_CODE_SECRET_ARN;
  if (!arn) throw new Error('SIGN_IN_CODE_SECRET_ARN is not set: the secret sign-in codes are keyed with');
  return secretsManagerSecret(arn);
}

function sesMailerFrom(env: NodeJS.ProcessEnv): Mailer {
  const from = env.MAIL_FROM;
  if (!from) throw new Error('MAIL_FROM is not set: the SES-verified address sign-in codes are sent from');
  return sesMailer({ client: new SESv2Client({ region: configuredRegion(env) }), from });
}
