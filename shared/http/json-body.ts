import type middy from '@middy/core';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { MalformedRequestError } from '../domain/errors';
import { hasReadableBody } from './request-body';

export interface JsonBodyContext {
  /** The parsed request body; undefined when the request has none. */
  jsonBody: unknown;
}

type JsonBodyMiddleware = middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context & JsonBodyContext
>;

/**
 * The parser's own Content-Type check is off: it looks up the header under two spellings only and
 * matches the media type case-sensitively, so `content-TYPE: Application/JSON` would be refused.
 * `jsonContentType` checks it (case-insensitively) before this middleware runs. The option is
 * documented (middy.js.org) but missing from the package's typings, hence the widened object.
 */
const parserOptions: Parameters<typeof httpJsonBodyParser>[0] & { disableContentTypeCheck: boolean } = {
  disableContentTypeCheck: true,
};

/**
 * Parses the request body as JSON with `@middy/http-json-body-parser` (base64 bodies decoded) and
 * hands it to validation as `context.jsonBody`. Around the library: a request without a readable
 * body (none, empty, or on a method whose body is ignored) has no body rather than a parse error;
 * malformed JSON is our 400 (the library says 415), with a fixed message, because the library's
 * error carries the body and error details end up in logs.
 */
export function jsonBody(): JsonBodyMiddleware {
  const parse = httpJsonBodyParser<APIGatewayProxyEvent>(parserOptions).before as NonNullable<
    JsonBodyMiddleware['before']
  >;
  return {
    before: async (request) => {
      if (!hasReadableBody(request.event)) {
        request.context.jsonBody = undefined;
        return;
      }
      try {
        await parse(request);
      } catch {
        throw new MalformedRequestError('The request body is not valid JSON.');
      }
      // The library replaces the body string with the parsed value.
      request.context.jsonBody = request.event.body as unknown;
    },
  };
}
