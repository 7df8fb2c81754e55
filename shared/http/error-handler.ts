import type { Logger } from '@aws-lambda-powertools/logger';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { DomainError, TooManyRequestsError } from '../domain/errors';
import { challengeHeadersOf } from './bearer-challenge';
import { type ErrorBody, errorBodyOf, errorResponse, retryAfterHeader } from './error-response';
import type { LoggerContext } from './request-logging';

/**
 * How an operation answers its errors, given the error body every format starts from. The common
 * JSON error body is the default; the OAuth endpoints' (oauth-error-answer.ts) and the pages'
 * (page-error-answer.ts) are modules of their own, so only the functions serving those operations
 * bundle them.
 */
export interface ErrorAnswer {
  /** The error as this format reports it; the error itself when omitted. */
  readonly reported?: (error: Error | null) => Error | null;
  readonly respond: (error: Error | null, body: ErrorBody) => APIGatewayProxyResult;
}

/** The common error body, with a Bearer challenge where the error calls for one. */
export const jsonErrorAnswer: ErrorAnswer = {
  respond: (error, body) => errorResponse(body, challengeHeadersOf(error)),
};

/**
 * Answers every error (`answer`, by default the common JSON error body): domain errors with their
 * status, anything else with a generic 500 whose cause (message and stack) goes to the log only.
 * Client errors are logged in one brief line, without the field details (they may quote what the
 * client sent). Every 429, whatever its format, carries `Retry-After` (docs/http.md, "Throttling").
 */
export function httpErrorHandler(options: {
  logger: Logger;
  answer?: ErrorAnswer;
}): middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context & Partial<LoggerContext>
> {
  const answer = options.answer ?? jsonErrorAnswer;
  return {
    onError: (request) => {
      const error = answer.reported ? answer.reported(request.error) : request.error;
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
      const response = answer.respond(error, body);
      request.response =
        error instanceof TooManyRequestsError
          ? {
              ...response,
              headers: { ...response.headers, [retryAfterHeader]: String(error.retryAfterSeconds) },
            }
          : response;
    },
  };
}
