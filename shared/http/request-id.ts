import { randomUUID } from 'node:crypto';
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { headerValue } from './request-headers';

export const requestIdHeader = 'x-request-id';

/** A caller's id is echoed only when it is a plain token: it ends up in logs and response headers. */
const saneRequestId = /^[A-Za-z0-9._-]{1,128}$/;

/**
 * The request id of one request: the caller's `x-request-id` when it is sane, else the gateway's
 * request id, else a new UUID.
 */
export function resolveRequestId(
  callerValue: string | undefined,
  gatewayRequestId: string | undefined,
): string {
  if (callerValue !== undefined && saneRequestId.test(callerValue)) {
    return callerValue;
  }
  return gatewayRequestId || randomUUID();
}

export interface RequestIdContext {
  requestId: string;
}

type RequestIdMiddleware = middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context & RequestIdContext
>;

/** Puts the request id on the context and on every response, error responses included. */
export function requestId(): RequestIdMiddleware {
  const attach: NonNullable<RequestIdMiddleware['after']> = (request) => {
    if (request.response) {
      request.response.headers = {
        ...request.response.headers,
        [requestIdHeader]: request.context.requestId,
      };
    }
  };
  return {
    before: (request) => {
      request.context.requestId = resolveRequestId(
        headerValue(request.event.headers, requestIdHeader),
        request.event.requestContext?.requestId,
      );
    },
    after: attach,
    onError: attach,
  };
}
