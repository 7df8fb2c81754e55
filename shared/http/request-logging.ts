import type { Logger } from '@aws-lambda-powertools/logger';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { RequestIdContext } from './request-id';

export interface LoggerContext {
  /** The request's logger: every line it writes carries the request id. */
  logger: Logger;
}

type RequestLoggingMiddleware = middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context & RequestIdContext & LoggerContext
>;

/**
 * One structured line per request: method, resource template, status and latency. Deliberately
 * nothing from headers, query or body: they carry API keys, tokens and customer data.
 * A child logger per request keeps the request id right when requests run concurrently (the local
 * server runs them all in one process).
 */
export function requestLogging(options: { logger: Logger; operationId?: string }): RequestLoggingMiddleware {
  const startedAt = new WeakMap<Context, number>();
  const logRequest: NonNullable<RequestLoggingMiddleware['after']> = (request) => {
    const started = startedAt.get(request.context);
    // The logger is missing only when the stack failed before this middleware ran.
    const logger = request.context.logger ?? options.logger;
    logger.info('request', {
      method: request.event.httpMethod,
      resource: request.event.resource,
      ...(options.operationId === undefined ? {} : { operation_id: options.operationId }),
      status: request.response?.statusCode,
      latency_ms: started === undefined ? undefined : Math.round(performance.now() - started),
    });
  };
  return {
    before: (request) => {
      startedAt.set(request.context, performance.now());
      request.context.logger = options.logger.createChild({
        persistentKeys: {
          request_id: request.context.requestId,
          function_request_id: request.context.awsRequestId,
        },
      });
    },
    after: logRequest,
    onError: logRequest,
  };
}
