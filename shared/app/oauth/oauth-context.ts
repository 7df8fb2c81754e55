import type { Signer } from '../../auth/signers/signer';
import type { ContextWith, Mailer } from '../ports';

/** The repositories the authorization server's use cases read and write. */
export type OAuthRepositories = 'oauthClients' | 'signIns' | 'oauthGrants' | 'memberships' | 'orgs';

/**
 * What the authorization server's use cases run with, beside the common context. Each use case
 * takes only the part it uses (`Pick<OAuthContext, ...>`), so that each of the server's functions
 * builds only its own: the sign-in function the mailer, the token function the signer, the
 * registration function the throttle buckets.
 */
export interface OAuthContext extends ContextWith<OAuthRepositories> {
  /** The issuer (`iss`): the API's base URL, without a trailing slash; the default `resource`. */
  readonly issuer: string;
  readonly mailer: Mailer;
  /**
   * The server's key for one-time sign-in codes (stored as an HMAC under it): on AWS a Secrets
   * Manager secret read once per container, locally one generated when the server starts.
   */
  readonly signInCodeKey: () => Promise<string>;
  /** Signs access tokens; its public keys verify the tokens clients revoke. */
  readonly signer: Signer;
}
