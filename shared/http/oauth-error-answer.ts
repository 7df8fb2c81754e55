import { DomainError, ValidationError } from '../domain/errors';
import { OAuthError } from '../domain/oauth/errors';
import { challengeHeadersOf } from './bearer-challenge';
import type { ErrorAnswer } from './error-handler';
import { type ErrorBody, errorResponse } from './error-response';
import { noStoreHeaders } from './operation';

/**
 * The errors of the OAuth endpoints (token, registration, revocation): the common error body
 * beside RFC 6749's `error` and `error_description`, never cached (RFC 6749 §5.1), and a request
 * the schemas refused as a 400 `invalid_request` (§5.2) instead of our 422.
 */
export const oauthErrorAnswer: ErrorAnswer = {
  reported: asOAuthError,
  respond: (error, body) =>
    errorResponse(oauthFieldsOf(error, body), { ...challengeHeadersOf(error), ...noStoreHeaders }),
};

/**
 * A request the schemas refused is RFC 6749's `invalid_request`, a 400 (never our 422), still
 * naming each failing field.
 */
function asOAuthError(error: Error | null): Error | null {
  if (!(error instanceof DomainError) || error instanceof OAuthError) return error;
  if (
    error.code !== 'validation_failed' &&
    error.code !== 'malformed_request' &&
    error.code !== 'unsupported_media_type'
  ) {
    return error;
  }
  const fields = error instanceof ValidationError ? error.fields : {};
  // A grant type the endpoint does not know fails the body's union on `grant_type`.
  const unknownGrant = Object.keys(fields).some((field) => /(^|\.)grant_type$/.test(field));
  const refused = new OAuthError(unknownGrant ? 'unsupported_grant_type' : 'invalid_request', error.message);
  Object.assign(refused.fields, fields);
  return refused;
}

function oauthFieldsOf(error: Error | null, body: ErrorBody): ErrorBody {
  return error instanceof OAuthError
    ? ({ ...body, error: error.oauthCode, error_description: error.message } as ErrorBody)
    : body;
}
