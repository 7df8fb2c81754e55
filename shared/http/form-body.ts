import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { UnsupportedMediaTypeError } from '../domain/errors';
import type { JsonBodyContext } from './json-body';
import { decodedBodyText, hasReadableBody } from './request-body';
import { headerValue } from './request-headers';

/** `application/x-www-form-urlencoded`, any case, optionally with parameters. */
const formMediaType = /^application\/x-www-form-urlencoded\s*(;.*)?$/i;

/**
 * For operations whose body is a form (the OAuth token, revocation and page endpoints): the body
 * must be declared as a form (415 otherwise) and is parsed into fields, as query strings are: a
 * field given once is a string, a repeated one an array (which single-value schemas refuse). It
 * is handed to validation where JSON bodies are (`context.jsonBody`).
 */
export function formBody(): middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context & JsonBodyContext
> {
  return {
    before: (request) => {
      const { event, context } = request;
      if (!hasReadableBody(event)) {
        context.jsonBody = undefined;
        return;
      }
      if (!formMediaType.test((headerValue(event.headers, 'content-type') ?? '').trim())) {
        throw new UnsupportedMediaTypeError(
          'The request body must be a form, sent with Content-Type: application/x-www-form-urlencoded.',
        );
      }
      const fields = new Map<string, string | string[]>();
      for (const [name, value] of new URLSearchParams(decodedBodyText(event))) {
        const earlier = fields.get(name);
        fields.set(name, earlier === undefined ? value : [earlier, value].flat());
      }
      context.jsonBody = Object.fromEntries(fields);
    },
  };
}
