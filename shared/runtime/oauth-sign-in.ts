import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { Mailer } from '../app/ports';
import { sesMailer } from '../mail/ses-mailer';
import { membershipRepository, orgRepository, signInRepository } from '../store/store';
import { configuredRegion } from './aws';
import { awsFunctionContext, onFirstUse } from './function-context';
import { issuerFromEnvironment } from './oauth-keys';
import { secretsManagerSecret } from './secrets-manager-secret';

const repositories = awsFunctionContext({
  signIns: signInRepository,
  memberships: membershipRepository,
  orgs: orgRepository,
});

/**
 * The sign-in function (authorize, the sign-in and consent pages) on AWS: its repositories on the
 * service's table, the issuer, the mailer that sends sign-in codes (SES v2 from `MAIL_FROM`) and
 * the key their stored HMACs are made with (the Secrets Manager secret `SIGN_IN_CODE_SECRET_ARN`),
 * built on the first invocation. A module of its own so that only the sign-in function bundles
 * the SES client; it signs nothing, so it takes the issuer alone and bundles no KMS client either.
 */
export const awsOAuthSignInContext = onFirstUse(() => ({
  ...repositories(),
  issuer: issuerFromEnvironment(process.env),
  mailer: sesMailerFrom(process.env),
  signInCodeKey: signInCodeKeyFrom(process.env),
}));

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
