import { SESv2Client } from '@aws-sdk/client-sesv2';
import type { OAuthContext } from '../app/oauth/oauth-context';
import type { Mailer } from '../app/ports';
import type { Signer } from '../auth/signers/signer';
import { sesMailer } from '../mail/ses-mailer';
import { appContext } from './current';

/**
 * What the OAuth function runs with beside the common context: the issuer (the API's base URL),
 * the mailer and the token signer. On Lambda the issuer and the mailer come from the environment
 * (`API_BASE_URL`, `MAIL_FROM`) on first use and the signer is installed by its adapter's
 * composition; the local server installs its own (outbox mailer, local key). Kept apart from
 * current.ts so that only the OAuth function bundles the SES client.
 */
let issuerAndMailer: { readonly issuer: string; readonly mailer: Mailer } | undefined;
let signer: Signer | undefined;

export function installOAuthServices(services: { readonly issuer: string; readonly mailer: Mailer }): void {
  issuerAndMailer = { issuer: services.issuer.replace(/\/+$/, ''), mailer: services.mailer };
}

export function installSigner(installed: Signer): void {
  signer = installed;
}

export function oauthContext(): OAuthContext {
  issuerAndMailer ??= readAwsOAuthServices(process.env);
  return { ...appContext(), ...issuerAndMailer, signer: installedSigner() };
}

/** The issuer, for the pages (cookie attributes depend on whether it is https). */
export function oauthIssuer(): string {
  issuerAndMailer ??= readAwsOAuthServices(process.env);
  return issuerAndMailer.issuer;
}

/** A Signer that asks for the installed one when used: pages that sign nothing run without one. */
function installedSigner(): Signer {
  const current = () => {
    if (signer === undefined) {
      throw new Error('No token signer is installed (installSigner): the KMS or local signer adapter');
    }
    return signer;
  };
  return { signingKey: () => current().signingKey(), publicKeys: () => current().publicKeys() };
}

function readAwsOAuthServices(env: NodeJS.ProcessEnv): { issuer: string; mailer: Mailer } {
  const issuer = env.API_BASE_URL;
  const from = env.MAIL_FROM;
  if (!issuer) throw new Error('API_BASE_URL is not set: the API base URL, which is the OAuth issuer');
  if (!from) throw new Error('MAIL_FROM is not set: the SES-verified address sign-in codes are sent from');
  return {
    issuer: issuer.replace(/\/+$/, ''),
    mailer: sesMailer({
      client: new SESv2Client({ region: env.AWS_REGION ?? env.AWS_DEFAULT_REGION }),
      from,
    }),
  };
}
