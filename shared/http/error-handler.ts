import type { Logger } from '@aws-lambda-powertools/logger';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { DomainError, ValidationError } from '../domain/errors';
import { OAuthError } from '../domain/oauth/errors';
import { challengeHeadersOf } from './bearer-challenge';
import { type ErrorBody, errorBodyOf, errorResponse } from './error-response';
import { errorPage, pageHeaders } from './html';
import { noStoreHeaders } from './operation';
import type { LoggerContext } from './request-logging';

/**
 * Answers every error with the error body: domain errors with their status, anything else with a
 * generic 500 whose cause (message and stack) goes to the log only. Client errors are logged in
 * one brief line, without the field details (they may quote what the client sent).
 */
/**
 * `json`: the common error body. `oauth`: the same beside RFC 6749's `error` and
 * `error_description`, request errors as 400 `invalid_request` (RFC 6749 §5.2); `html`: a page.
 */
export type ErrorFormat = 'json' | 'oauth' | 'html';

export function httpErrorHandler(options: {
  logger: Logger;
  format?: ErrorFormat;
}): middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context & Partial<LoggerContext>
> {
  return {
    onError: (request) => {
      const format = options.format ?? 'json';
      const error = format === 'json' ? request.error : asOAuthError(request.error);
      const body = errorBodyOf(error);
      const logger = request.context.logger ?? options.logger;
      if (error instanceof DomainError) {
        logger.info('request rejected', {
          status: body.code,
          error_code: error.code,
          error_message: error.message,
        });
      } else {
        logger.error('request failed', error instanceof Error ? error : new Error(String(error)));
      }
      request.response =
        format === 'html'
          ? { statusCode: body.code, headers: { ...pageHeaders }, body: errorPage(body.status, body.message) }
          : errorResponse(oauthFieldsOf(error, body), { ...challengeHeadersOf(error), ...noStore(format) });
    },
  };
}

/** RFC 6749 §5.1: no response of the OAuth endpoints may be cached, errors included. */
function noStore(format: ErrorFormat): Record<string, string> {
  return format === 'oauth' ? noStoreHeaders : {};
}

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
