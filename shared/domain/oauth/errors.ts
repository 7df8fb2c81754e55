import { DomainError } from '../errors';

/**
 * The error codes of the OAuth endpoints: RFC 6749 §4.1.2.1 and §5.2, RFC 8707's
 * `invalid_target`, RFC 7591's registration errors and RFC 7009's.
 */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'unsupported_response_type'
  | 'invalid_scope'
  | 'invalid_target'
  | 'access_denied'
  | 'invalid_redirect_uri'
  | 'invalid_client_metadata'
  | 'unsupported_token_type';

/**
 * A refused OAuth request: the endpoint answers `error` (this code) and `error_description`
 * (the message) beside the service's error body. A client that fails to authenticate is a 401,
 * everything else a 400, as RFC 6749 §5.2 says.
 */
export class OAuthError extends DomainError {
  readonly code: 'unauthenticated' | 'malformed_request';

  constructor(
    readonly oauthCode: OAuthErrorCode,
    message: string,
  ) {
    super(message);
    this.code = oauthCode === 'invalid_client' ? 'unauthenticated' : 'malformed_request';
  }
}
