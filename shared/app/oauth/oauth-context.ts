import type { Signer } from '../../auth/signers/signer';
import type { AppContext, Mailer } from '../ports';

/** What the authorization server's use cases run with, beside the common context. */
export interface OAuthContext extends AppContext {
  /** The issuer (`iss`): the API's base URL, without a trailing slash; the default `resource`. */
  readonly issuer: string;
  readonly mailer: Mailer;
  /** Signs access tokens; its public keys verify the tokens clients revoke. */
  readonly signer: Signer;
}
