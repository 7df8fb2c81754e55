import type { Logger } from '@aws-lambda-powertools/logger';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { DomainError } from '../domain/errors';
import { challengeHeadersOf } from './bearer-challenge';
import { errorBodyOf, errorResponse } from './error-response';
import type { LoggerContext } from './request-logging';

/**
 * Answers every error with the error body: domain errors with their status, anything else with a
 * generic 500 whose cause (message and stack) goes to the log only. Client errors are logged in
 * one brief line, without the field details (they may quote what the client sent).
 */
export function httpErrorHandler(options: {
  logger: Logger;
}): middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context & Partial<LoggerContext>
> {
  return {
    onError: (request) => {
      const { error } = request;
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
      request.response = errorResponse(body, challengeHeadersOf(error));
    },
  };
}
