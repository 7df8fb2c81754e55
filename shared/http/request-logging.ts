import type { Logger } from '@aws-lambda-powertools/logger';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { RequestIdContext } from './request-id';

/** What a request logs through: the function's logger, its lines carrying the request's ids. */
export type RequestLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export interface LoggerContext {
  /** The request's logger: every line it writes carries the request id. */
  logger: RequestLogger;
}

/** The log key of the request id (the `x-request-id` header's value) on every line of a request. */
export const requestIdLogKey = 'request_id';

type RequestMiddleware<C extends Context> = middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  C
>;

/**
 * Powertools' `injectLambdaContext`: each line carries the Lambda context (`function_request_id`,
 * `cold_start`, the function's name, ARN and memory), and the keys a request appends are dropped
 * when it ends (`resetKeys`). The event is never logged, whatever POWERTOOLS_LOGGER_LOG_EVENT
 * says: it holds credentials and customer data. Use it first, so its clean-up runs last.
 */
export function lambdaContextLogging(logger: Logger): RequestMiddleware<Context> {
  return injectLambdaContext(logger, { logEvent: false, resetKeys: true });
}

/**
 * Adds the request id to every line the request logs (a key of this invocation: concurrent
 * invocations in one process, as on the local server, each keep their own), and writes one
 * structured line per request: method, resource template, status and latency. Deliberately
 * nothing from headers, query or body: they carry API keys, tokens and customer data.
 */
export function requestLogging(options: {
  logger: Logger;
  operationId?: string;
}): RequestMiddleware<Context & RequestIdContext & LoggerContext> {
  const { logger, operationId } = options;
  const startedAt = new WeakMap<Context, number>();
  const logRequest: NonNullable<RequestMiddleware<Context>['after']> = (request) => {
    const started = startedAt.get(request.context);
    logger.info('request', {
      method: request.event.httpMethod,
      resource: request.event.resource,
      ...(operationId === undefined ? {} : { operation_id: operationId }),
      status: request.response?.statusCode,
      latency_ms: started === undefined ? undefined : Math.round(performance.now() - started),
    });
  };
  return {
    before: (request) => {
      startedAt.set(request.context, performance.now());
      logger.appendKeys({ [requestIdLogKey]: request.context.requestId });
      request.context.logger = logger;
    },
    after: logRequest,
    onError: logRequest,
  };
}
