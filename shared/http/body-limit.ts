import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { bodyTooLargeError, decodedBodyByteLength, maxRequestBodyBytes } from './request-body';

/** Rejects a body over the limit (413) before anything reads it. */
export function bodyLimit(
  maxBytes: number = maxRequestBodyBytes,
): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context> {
  return {
    before: (request) => {
      if (decodedBodyByteLength(request.event) > maxBytes) {
        throw bodyTooLargeError(maxBytes);
      }
    },
  };
}
