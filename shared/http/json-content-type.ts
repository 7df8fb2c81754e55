import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { UnsupportedMediaTypeError } from '../domain/errors';
import { hasReadableBody } from './request-body';
import { headerValue } from './request-headers';

/** `application/json`, any case, optionally followed by parameters such as `; charset=utf-8`. */
const jsonMediaType = /^application\/json\s*(;.*)?$/i;

export function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType !== undefined && jsonMediaType.test(contentType.trim());
}

/** A request body must be declared as JSON (415 otherwise); requests without a body pass. */
export function jsonContentType(): middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context
> {
  return {
    before: (request) => {
      if (
        hasReadableBody(request.event) &&
        !isJsonMediaType(headerValue(request.event.headers, 'content-type'))
      ) {
        throw new UnsupportedMediaTypeError(
          'The request body must be JSON, sent with Content-Type: application/json.',
        );
      }
    },
  };
}
