import type { Logger } from '@aws-lambda-powertools/logger';
import type { LogAttributes, LogItemExtraInput } from '@aws-lambda-powertools/logger/types';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { RequestIdContext } from './request-id';

/** What a request logs through: the logger's levels, every line carrying the request's ids. */
export type RequestLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error'>;

export interface LoggerContext {
  /** The request's logger: every line it writes carries the request id. */
  logger: RequestLogger;
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
 * Each request logs through its own logger, so that the request id stays right when requests run
 * concurrently (the local server runs them all in one process).
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
      request.context.logger = requestLogger(options.logger, {
        request_id: request.context.requestId,
        function_request_id: request.context.awsRequestId,
      });
    },
    after: logRequest,
    onError: logRequest,
  };
}

/**
 * Logs through `logger` with `keys` added to every line: the same lines as a Powertools child
 * logger with these persistent keys, without building a whole Logger (its options, environment
 * and console) for every request.
 */
function requestLogger(logger: Logger, keys: LogAttributes): RequestLogger {
  const withKeys = (extraInput: LogItemExtraInput): LogAttributes[] => [
    keys,
    ...extraInput.map(asAttributes),
  ];
  return {
    debug: (input, ...extraInput) => logger.debug(input, ...withKeys(extraInput)),
    info: (input, ...extraInput) => logger.info(input, ...withKeys(extraInput)),
    warn: (input, ...extraInput) => logger.warn(input, ...withKeys(extraInput)),
    error: (input, ...extraInput) => logger.error(input, ...withKeys(extraInput)),
  };
}

/** An extra input as the attributes Powertools logs it as: an error under `error`, a string under `extra`. */
function asAttributes(item: LogItemExtraInput[number]): LogAttributes {
  if (item instanceof Error) return { error: item };
  return typeof item === 'string' ? { extra: item } : item;
}
