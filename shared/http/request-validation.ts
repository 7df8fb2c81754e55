import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type * as z from 'zod/mini';
import { type InputLocation, parseInput } from '../contract/validation-errors';
import { ValidationError } from '../domain/errors';
import type { JsonBodyContext } from './json-body';
import { mergeQueryParameters } from './query-parameters';

/** Schemas of the parts of a request; a part without a schema is not validated (see `validateRequest`). */
export interface RequestSchemas {
  readonly pathParams?: z.core.$ZodType | undefined;
  readonly query?: z.core.$ZodType | undefined;
  readonly body?: z.core.$ZodType | undefined;
}

export interface ValidatedRequest {
  readonly pathParams: unknown;
  readonly query: unknown;
  readonly body: unknown;
}

export interface ValidatedRequestContext {
  validated: ValidatedRequest;
}

export const unexpectedBodyMessage = 'This operation takes no request body.';

/**
 * Parses path parameters, query and body with their schemas and reports every failing field of
 * every part in one 422. Without a schema, path parameters and query are handed on as they came
 * (`Record<string, string>` and `QueryValues`), while a body is refused: an operation that declares
 * no body schema takes no body.
 */
export function validateRequest(
  schemas: RequestSchemas,
): middy.MiddlewareObj<
  APIGatewayProxyEvent,
  APIGatewayProxyResult,
  Error,
  Context & JsonBodyContext & ValidatedRequestContext
> {
  return {
    before: async (request) => {
      const { event, context } = request;
      // Entries, not an object: a field named `__proto__` must stay an ordinary key.
      const failures: [string, string[]][] = [];
      const parse = (part: InputLocation, schema: z.core.$ZodType | undefined, raw: unknown) => {
        if (schema === undefined) {
          return raw;
        }
        const result = parseInput(schema, raw, part);
        if (!result.success) {
          failures.push(...Object.entries(result.errors));
          return undefined;
        }
        return result.data;
      };
      const pathParams = parse('path', schemas.pathParams, definedEntries(event.pathParameters));
      const query = parse(
        'query',
        schemas.query,
        mergeQueryParameters(event.queryStringParameters, event.multiValueQueryStringParameters),
      );
      if (schemas.body === undefined && context.jsonBody !== undefined) {
        failures.push(['body', [unexpectedBodyMessage]]);
      }
      const body = parse('body', schemas.body, context.jsonBody);
      if (failures.length > 0) {
        throw new ValidationError(
          'The request is not valid; `errors` names each failing field.',
          Object.fromEntries(failures),
        );
      }
      context.validated = { pathParams, query, body };
    },
  };
}

function definedEntries(values: Record<string, string | undefined> | null): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values ?? {}).flatMap(([key, value]) =>
      value === undefined ? [] : [[key, value] as const],
    ),
  );
}
