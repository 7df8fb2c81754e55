import { isDeepStrictEqual } from 'node:util';
import * as z from 'zod/mini';
import { errorBody } from './errors';
import type { ObjectSchema, OperationContract, OperationTag } from './operation-contract';
import { type OperationId, operationIds, operations } from './operations';
import { paginationHeader } from './pagination';
import { jsonParamContent } from './query';
import { contractSchemas } from './schema-registry';

/**
 * The OpenAPI 3.1 document of the API, generated from the contract's schemas: one source for
 * validation, responses and documentation. Schemas registered with an id become
 * `components/schemas`; everything else is written in place.
 */

type Json = Record<string, unknown>;

const tagDescriptions: Record<OperationTag, string> = {
  OAuth: 'OAuth 2.0 authorization server: authorization-code grant with PKCE, refresh tokens, discovery',
  'Commitment plans':
    'Commitment plans per provider, their line items and resource matches, and the commitments chart',
  Partners: 'Partner settings, child organizations, onboarding and purchases on behalf of customers',
  Documentation: 'This document',
};

const errorResponses = {
  400: ['BadRequest', 'The body is not valid JSON'],
  401: ['Unauthorized', 'Credentials are missing or invalid'],
  403: ['Forbidden', 'The caller may not perform this operation'],
  404: ['NotFound', 'No such object, or it belongs to another organization'],
  409: ['Conflict', 'The request conflicts with the current state'],
  413: ['PayloadTooLarge', 'The body is larger than 256 KiB'],
  415: ['UnsupportedMediaType', 'The body is not declared as the content type the operation takes'],
  422: ['UnprocessableEntity', 'Invalid input; `errors` names each field'],
  429: ['TooManyRequests', 'Too many requests; retry later'],
  500: ['InternalServerError', 'Unexpected error'],
} as const satisfies Record<number, readonly [string, string]>;
type ErrorStatus = keyof typeof errorResponses;

/** Where `npm start` serves the API by default (local/local-runtime.ts: HOST 127.0.0.1, PORT 3000). */
export const localServerUrl = 'http://127.0.0.1:3000';

export function buildOpenApiDocument(): Json {
  const components = new ComponentSchemas();
  const paths: Record<string, Record<string, Json>> = {};
  for (const id of operationIds) {
    const operation: OperationContract = operations[id];
    paths[operation.path] = {
      ...paths[operation.path],
      [operation.method.toLowerCase()]: operationObject(id, operation, components),
    };
  }
  const errorSchema = components.ref(errorBody);
  const paginationSchema = components.ref(paginationHeader);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Commitment Planning and Partner Onboarding Service',
      version: '1.0.0',
      description:
        'Commitment plans (reserved instances, savings plans, guaranteed commitments) computed from hourly ' +
        'usage, their execution, partner onboarding of customer organizations, and an OAuth 2.0 ' +
        'authorization server. Money is USD; hourly figures are per hour, monthly ones hourly x 730.',
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    // The file names the local server (`npm start`); the served document, the deployment's base
    // URL (functions/openapi/handler.ts).
    servers: [{ url: localServerUrl, description: 'The local server (npm start)' }],
    tags: Object.entries(tagDescriptions).map(([name, description]) => ({ name, description })),
    security: [{ ApiKey: [] }, { BearerJwt: [] }],
    paths: sortedByKey(paths),
    components: {
      schemas: components.all(),
      responses: Object.fromEntries(
        Object.entries(errorResponses).map(([status, [name, description]]) => [
          name,
          {
            description,
            headers: errorHeadersOf(Number(status)),
            content: { 'application/json': { schema: errorSchema } },
          },
        ]),
      ),
      headers: {
        RequestId: { description: 'Identifies the request in the logs', schema: { type: 'string' } },
        Pagination: {
          description: 'The pages of the list, as a JSON object',
          content: { 'application/json': { schema: paginationSchema } },
        },
        RetryAfter: {
          description: 'Seconds to wait before sending the request again (every 429)',
          schema: { type: 'integer', minimum: 1 },
        },
        IdempotentReplayed: {
          description:
            "`true` when the response is the replay of the first response to the request's Idempotency-Key",
          schema: { type: 'string', enum: ['true'] },
        },
      },
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description:
            'Optional; 1 to 255 printable ASCII characters, scoped to the caller and kept 24 hours. ' +
            'Repeating a request (method, path with ids compared without case, JSON body) with the same key replays the first ' +
            'successful response, with the header `Idempotent-Replayed: true`; the same key with a ' +
            'different request is rejected (422, `errors` naming `Idempotency-Key`), and so is a ' +
            'repeat while the first request is still in progress (409). A request that fails does not ' +
            'keep its key: retrying it runs it again.',
          schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
        },
      },
      securitySchemes: {
        ApiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A user or partner API key' },
        BearerJwt: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token issued by /oauth/token',
        },
      },
    },
  };
}

/** The document as `docs/openapi.json` holds it. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}

const requestIdHeader = { 'x-request-id': { $ref: '#/components/headers/RequestId' } };

/** The headers of an error response: the request id, and `Retry-After` on every 429 (docs/http.md, Throttling). */
function errorHeadersOf(status: number): Json {
  return status === 429
    ? { ...requestIdHeader, 'Retry-After': { $ref: '#/components/headers/RetryAfter' } }
    : requestIdHeader;
}

function operationObject(id: OperationId, operation: OperationContract, components: ComponentSchemas): Json {
  const parameters = [
    ...pathParameters(operation, components),
    ...queryParameters(operation, components),
    ...(operation.idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
  return {
    operationId: id,
    summary: operation.summary,
    tags: [operation.tag],
    ...(operation.public || operation.oauth ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: {
              [operation.bodyMediaType ?? 'application/json']: {
                schema: components.schemaOf(operation.body, 'input'),
              },
            },
          },
        }
      : {}),
    responses: {
      ...successResponses(operation, components),
      ...Object.fromEntries(
        errorStatuses(operation).map((status) => [status, errorResponse(operation, status, components)]),
      ),
      ...redirectOutcome(operation),
    },
  };
}

/** The schema a deferred one (`z.lazy`) builds; any other schema as it is. */
function built(schema: z.core.$ZodType): z.core.$ZodType {
  return schema instanceof z.core.$ZodLazy ? built(schema._zod.innerType) : schema;
}

function shapeOf(schema: ObjectSchema | undefined): Readonly<Record<string, z.core.$ZodType>> {
  return schema === undefined ? {} : (built(schema) as z.core.$ZodObject)._zod.def.shape;
}

function pathParameters(operation: OperationContract, components: ComponentSchemas): Json[] {
  return Object.entries(shapeOf(operation.pathParams)).map(([name, schema]) => ({
    name,
    in: 'path',
    required: true,
    schema: components.schemaOf(schema),
  }));
}

function queryParameters(operation: OperationContract, components: ComponentSchemas): Json[] {
  return Object.entries(shapeOf(operation.query)).map(([name, schema]) => {
    const required = !z.safeParse(schema, undefined).success;
    const value = built(schema);
    const content = jsonParamContent(
      value instanceof z.core.$ZodOptional ? built(value._zod.def.innerType) : value,
    );
    if (content) {
      const { description, ...contentSchema } = components.schemaOf(content, 'input');
      return {
        name,
        in: 'query',
        required,
        ...(description === undefined ? {} : { description }),
        content: { 'application/json': { schema: contentSchema } },
      };
    }
    const { description, ...valueSchema } = components.schemaOf(schema);
    const listNote =
      valueSchema.type === 'array' ? 'Repeat the parameter or separate values with commas.' : '';
    const text = [description, listNote].filter(Boolean).join('. ');
    return { name, in: 'query', required, ...(text ? { description: text } : {}), schema: valueSchema };
  });
}

function successResponses(operation: OperationContract, components: ComponentSchemas): Json {
  return Object.fromEntries(
    Object.entries(operation.responses).map(([status, schema]) => {
      const headers: Json = { ...requestIdHeader };
      if (status === '302' || status === '303') {
        headers.Location = {
          description: 'Where the client is sent',
          schema: { type: 'string', format: 'uri' },
        };
      }
      if (operation.paginated && status === '200') {
        headers['X-Pagination'] = { $ref: '#/components/headers/Pagination' };
      }
      if (operation.idempotent && status.startsWith('2')) {
        headers['Idempotent-Replayed'] = { $ref: '#/components/headers/IdempotentReplayed' };
      }
      return [
        status,
        {
          description: successDescriptions[status] ?? 'Success',
          headers,
          ...(schema
            ? {
                content: {
                  'application/json': { schema: components.schemaOf(schema) },
                  ...(status === '200'
                    ? Object.fromEntries(
                        (operation.alsoAnswersAs ?? []).map((type) => [type, { schema: { type: 'string' } }]),
                      )
                    : {}),
                },
              }
            : operation.html && status === '200'
              ? { content: { 'text/html': { schema: { type: 'string' } } } }
              : {}),
        },
      ];
    }),
  );
}

/**
 * An operation that only redirects (the OAuth pages) succeeds with a 3xx, not a 2xx. Its
 * `default` response says so: no other status than those listed is answered, and what the client
 * gets on success is the redirect, which the browser follows. (Redocly's `operation-2xx-response`
 * accepts `default` as the success response.)
 */
function redirectOutcome(operation: OperationContract): Json {
  const statuses = Object.keys(operation.responses);
  if (statuses.some((status) => status.startsWith('2'))) return {};
  return {
    default: {
      description:
        'Never answered: this operation succeeds with the redirect above (the browser follows `Location`); the other statuses it answers are listed',
    },
  };
}

const successDescriptions: Record<string, string> = {
  200: 'OK',
  204: 'Nothing to return',
  302: 'Redirect',
  303: 'See Other: the browser follows it with a GET',
};

/** How the OAuth endpoints answer client errors (RFC 6749 §4.1.2.1 and §5.2). */
function oauthErrorDescription(operation: OperationContract, status: ErrorStatus): string | undefined {
  if (!operation.oauth) return undefined;
  if (operation.html && operation.method === 'POST' && status === 400) {
    return 'The form is stale or forged (no valid session or CSRF token): an HTML page says so';
  }
  if (operation.html && operation.path !== '/oauth/authorize' && status === 400) {
    return 'The pending request is unknown or expired: an HTML page says so';
  }
  if (status === 400) {
    return operation.clientErrorBody
      ? 'The request is refused; `error` names why (`invalid_request`, `invalid_grant`, ...)'
      : 'Unknown client or redirect URI; other errors are redirected to the client with an `error` parameter';
  }
  if (status === 401) return 'The client failed to authenticate (`invalid_client`)';
  return undefined;
}

/** How a page that is not OAuth's (the Azure consent callback) answers a link it cannot honour. */
function pageErrorDescription(operation: OperationContract, status: ErrorStatus): string | undefined {
  if (!operation.html || operation.oauth || status !== 400) return undefined;
  return 'The link is no longer valid (forged, expired, already used, replaced or for another tenant): an HTML page says so, and nothing changes';
}

function errorResponse(
  operation: OperationContract,
  status: ErrorStatus,
  components: ComponentSchemas,
): Json {
  const description = oauthErrorDescription(operation, status) ?? pageErrorDescription(operation, status);
  if (description === undefined) {
    return { $ref: `#/components/responses/${errorResponses[status][0]}` };
  }
  return {
    description,
    headers: errorHeadersOf(status),
    content: operation.html
      ? { 'text/html': { schema: { type: 'string' } } }
      : { 'application/json': { schema: components.schemaOf(operation.clientErrorBody ?? errorBody) } },
  };
}

function errorStatuses(operation: OperationContract): ErrorStatus[] {
  const hasInput = Boolean(operation.pathParams || operation.query || operation.body);
  const statuses: ErrorStatus[] = [];
  if (operation.body || operation.oauth || operation.html) statuses.push(400);
  if (operation.clientErrorBody) statuses.push(401);
  if (!operation.public && !operation.oauth) statuses.push(401, 403);
  if (operation.pathParams) statuses.push(404);
  // An idempotent operation answers 409 to a repeat in flight, 422 to a key reused or malformed.
  if (operation.conflicts || operation.idempotent) statuses.push(409);
  if (operation.body) statuses.push(413, 415);
  if ((hasInput || operation.idempotent) && !operation.oauth) statuses.push(422);
  statuses.push(429, 500);
  return statuses;
}

/** Collects the named schemas met while converting, under `components/schemas`. */
class ComponentSchemas {
  readonly #schemas = new Map<string, Json>();

  /** The JSON Schema of `schema`; named schemas inside it become references. */
  schemaOf(schema: z.core.$ZodType, io: 'input' | 'output' = 'output'): Json {
    const {
      $schema: _dialect,
      $defs: definitions,
      ...json
    } = z.toJSONSchema(schema, { metadata: contractSchemas, io, target: 'draft-2020-12' }) as Json;
    for (const [id, definition] of Object.entries((definitions ?? {}) as Record<string, Json>)) {
      const component = pointRefsAtComponents(definition) as Json;
      const known = this.#schemas.get(id);
      if (known && !isDeepStrictEqual(known, component)) {
        throw new Error(`Schema ${id} converts differently where it is used`);
      }
      this.#schemas.set(id, component);
    }
    return pointRefsAtComponents(json) as Json;
  }

  /** A reference to the named `schema`. */
  ref(schema: z.core.$ZodType): Json {
    const reference = this.schemaOf(schema);
    if (typeof reference.$ref !== 'string') {
      throw new Error('Only a named schema can be referenced');
    }
    return reference;
  }

  all(): Json {
    return sortedByKey(Object.fromEntries(this.#schemas));
  }
}

function pointRefsAtComponents(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(pointRefsAtComponents);
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === '$ref' && typeof inner === 'string'
        ? inner.replace(/^#\/\$defs\//, '#/components/schemas/')
        : pointRefsAtComponents(inner),
    ]),
  );
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
