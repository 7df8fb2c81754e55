import type { APIGatewayProxyResult } from 'aws-lambda';
import { DomainError, type DomainErrorCode, ReasonedConflictError } from '../domain/errors';
import { unauthenticatedChallenge, wwwAuthenticateHeader } from './bearer-challenge';

/**
 * The one error body of the API (docs/http.md), used by the Lambda handlers, the local server and the
 * API Gateway gateway responses alike: `errors` maps field paths to messages and is `{}` when the
 * error concerns no field.
 */
export interface ErrorBody {
  readonly code: number;
  readonly status: string;
  readonly message: string;
  readonly errors: Readonly<Record<string, readonly string[]>>;
  /** A stable code saying why, on the conflicts that have one (`ReasonedConflictError`). */
  readonly reason?: string;
  /** With `plan_outdated`: the plan computed since, to apply instead. */
  readonly successor_plan_id?: string;
}

/** Reason phrases of the statuses the service answers with (RFC 9110 wording as most clients know it). */
const reasonPhrases = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
} as const;

export type ErrorStatus = keyof typeof reasonPhrases;

const statusByDomainCode: Readonly<Record<DomainErrorCode, ErrorStatus>> = {
  malformed_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  validation_failed: 422,
  too_many_requests: 429,
};

/** What a client sees for an unexpected failure; the cause goes to the logs only. */
export const internalErrorMessage = 'The service failed to handle the request.';

/** The content type of every JSON response. */
export const applicationJson = 'application/json';

export function errorBody(
  status: ErrorStatus,
  message: string,
  errors: Readonly<Record<string, readonly string[]>> = {},
): ErrorBody {
  return { code: status, status: reasonPhrases[status], message, errors };
}

export function statusOfDomainError(error: DomainError): ErrorStatus {
  return statusByDomainCode[error.code];
}

/** The status and body an error answers with: domain errors by their code, anything else 500. */
export function errorBodyOf(error: unknown): ErrorBody {
  if (error instanceof ReasonedConflictError) {
    return {
      ...errorBody(statusOfDomainError(error), error.message, error.fields),
      reason: error.reason,
      ...(error.successorPlanId ? { successor_plan_id: error.successorPlanId } : {}),
    };
  }
  if (error instanceof DomainError) {
    return errorBody(statusOfDomainError(error), error.message, error.fields);
  }
  return errorBody(500, internalErrorMessage);
}

export function errorResponse(body: ErrorBody, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return {
    statusCode: body.code,
    headers: { 'content-type': applicationJson, ...headers },
    body: JSON.stringify(body),
  };
}

export function errorResponseOf(error: unknown): APIGatewayProxyResult {
  return errorResponse(errorBodyOf(error));
}

/** What a request without valid credentials is told, by the authorizer (gateway response) and the handlers. */
export const invalidCredentialsMessage = 'Missing or invalid credentials.';

/**
 * The authorizer refused the credentials (API Gateway: the UNAUTHORIZED gateway response), with
 * the Bearer challenge naming the protected-resource metadata under `baseUrl` (RFC 9728 §5.1).
 */
export function unauthorizedResponse(baseUrl: string): APIGatewayProxyResult {
  return errorResponse(errorBody(401, invalidCredentialsMessage), {
    [wwwAuthenticateHeader]: unauthenticatedChallenge(baseUrl),
  });
}

/** Seconds to wait, on every 429 (RFC 9110 §10.2.3). */
export const retryAfterHeader = 'retry-after';

/**
 * What a throttled API key waits: its bucket gains a token within a second at the default rate.
 * API Gateway's THROTTLED answer carries the same fixed value (lib/constructs/error-responses.ts).
 */
export const apiKeyRetryAfterSeconds = 1;

/** The caller is over its API key's rate (API Gateway: the THROTTLED gateway response, from the usage plan). */
export function throttledResponse(): APIGatewayProxyResult {
  return errorResponse(errorBody(429, 'Too many requests for this API key; retry after a moment.'), {
    [retryAfterHeader]: String(apiKeyRetryAfterSeconds),
  });
}

/** No route template matches the path (API Gateway: MISSING_AUTHENTICATION_TOKEN remapped to 404). */
export function routeNotFoundBody(): ErrorBody {
  return errorBody(404, 'No such resource.');
}

export function routeNotFoundResponse(): APIGatewayProxyResult {
  return errorResponse(routeNotFoundBody());
}

/** A route template matches the path but not the method; `Allow` lists the methods it has. */
export function methodNotAllowedResponse(allowedMethods: readonly string[]): APIGatewayProxyResult {
  return errorResponse(errorBody(405, 'The resource does not support this method.'), {
    allow: allowedMethods.join(', '),
  });
}
