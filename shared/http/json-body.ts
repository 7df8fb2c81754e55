import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { MalformedRequestError } from '../domain/errors';
import { decodedBodyText, hasReadableBody } from './request-body';

export interface JsonBodyContext {
  /** The parsed request body; undefined when the request has none. */
  jsonBody: unknown;
}

/**
 * Parses the request body as JSON (400 when it is not). The parser's message is not passed on: it
 * quotes the body, and error messages end up in logs.
 */
export function jsonBody(): middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context & JsonBodyContext
> {
  return {
    before: (request) => {
      if (!hasReadableBody(request.event)) {
        request.context.jsonBody = undefined;
        return;
      }
      try {
        request.context.jsonBody = JSON.parse(decodedBodyText(request.event));
      } catch {
        throw new MalformedRequestError('The request body is not valid JSON.');
      }
    },
  };
}
