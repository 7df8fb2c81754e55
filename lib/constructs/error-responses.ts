import { STATUS_CODES } from 'node:http';
import { ResponseType, type RestApiBase } from 'aws-cdk-lib/aws-apigateway';
import { unauthenticatedChallenge, wwwAuthenticateHeader } from '../../shared/http/bearer-challenge';
import { apiKeyRetryAfterSeconds, retryAfterHeader } from '../../shared/http/error-response';

/**
 * The service's error body (docs/http.md) for the responses API Gateway answers itself, without a
 * Lambda: unknown routes, rejected credentials, throttling, oversized requests, integration
 * failures. Clients then see one error shape whoever answered.
 */

/**
 * The error body as a mapping template. `messageJson` is a JSON string literal or a `$context`
 * variable that renders as one (`$context.error.messageString`).
 */
export function errorBodyTemplate(status: number, messageJson: string): string {
  const reason = STATUS_CODES[status];
  if (!reason) throw new Error(`No HTTP reason phrase for status ${status}`);
  return `{"code":${status},"status":${JSON.stringify(reason)},"message":${messageJson},"errors":{}}`;
}

/** Header carrying the request id on every response (docs/http.md), as API Gateway maps it. */
export const requestIdHeader = 'x-request-id';
export const requestIdSource = 'context.requestId';

interface GatewayError {
  readonly type: ResponseType;
  readonly status: number;
  readonly message: string;
}

/**
 * Every specific gateway response type, with the status it is answered with: so a body's `code`
 * always equals the status sent. All keep API Gateway's default status but
 * MISSING_AUTHENTICATION_TOKEN, which API Gateway sends (as 403) for a path no resource matches.
 * Types this API cannot produce today (API-key, IAM-signature, request-validator, WAF responses)
 * are listed too, so enabling such a feature later cannot bring back AWS's own body.
 */
export const gatewayErrors: readonly GatewayError[] = [
  { type: ResponseType.MISSING_AUTHENTICATION_TOKEN, status: 404, message: 'Unknown route' },
  { type: ResponseType.RESOURCE_NOT_FOUND, status: 404, message: 'Not found' },
  { type: ResponseType.UNAUTHORIZED, status: 401, message: 'Missing or invalid credentials' },
  { type: ResponseType.ACCESS_DENIED, status: 403, message: 'The credentials do not allow this request' },
  { type: ResponseType.INVALID_API_KEY, status: 403, message: 'Missing or invalid credentials' },
  { type: ResponseType.INVALID_SIGNATURE, status: 403, message: 'Missing or invalid credentials' },
  { type: ResponseType.EXPIRED_TOKEN, status: 403, message: 'Missing or invalid credentials' },
  { type: ResponseType.WAF_FILTERED, status: 403, message: 'Request blocked' },
  { type: ResponseType.BAD_REQUEST_PARAMETERS, status: 400, message: 'Invalid request parameters' },
  { type: ResponseType.BAD_REQUEST_BODY, status: 400, message: 'Invalid request body' },
  { type: ResponseType.REQUEST_TOO_LARGE, status: 413, message: 'Request too large' },
  { type: ResponseType.UNSUPPORTED_MEDIA_TYPE, status: 415, message: 'Unsupported media type' },
  { type: ResponseType.THROTTLED, status: 429, message: 'Too many requests' },
  { type: ResponseType.QUOTA_EXCEEDED, status: 429, message: 'Too many requests' },
  { type: ResponseType.AUTHORIZER_FAILURE, status: 500, message: 'Internal server error' },
  { type: ResponseType.AUTHORIZER_CONFIGURATION_ERROR, status: 500, message: 'Internal server error' },
  { type: ResponseType.API_CONFIGURATION_ERROR, status: 500, message: 'Internal server error' },
  { type: ResponseType.INTEGRATION_FAILURE, status: 504, message: 'The service did not answer' },
  { type: ResponseType.INTEGRATION_TIMEOUT, status: 504, message: 'The service did not answer in time' },
];

/**
 * The fallbacks, for response types AWS may add. Their status is left unset: setting a status on
 * DEFAULT_4XX/5XX would rewrite the status of every response of that class.
 */
const fallbackErrors = [
  { type: ResponseType.DEFAULT_4XX, status: 400 },
  { type: ResponseType.DEFAULT_5XX, status: 500 },
] as const;

/**
 * `baseUrl` is the API's base URL: every 401 (UNAUTHORIZED: the authorizer refused) carries the
 * Bearer challenge naming the protected-resource metadata (RFC 9728 §5.1), and every 429 (an API
 * key's bucket is empty) `Retry-After`, a static value: a gateway response cannot compute one.
 */
export function addErrorResponses(api: RestApiBase, baseUrl: string): void {
  const responseHeaders = { [requestIdHeader]: requestIdSource };
  const challenge = `'${unauthenticatedChallenge(baseUrl)}'`;
  for (const { type, status, message } of gatewayErrors) {
    api.addGatewayResponse(type.responseType, {
      type,
      statusCode: String(status),
      responseHeaders:
        status === 401
          ? { ...responseHeaders, [wwwAuthenticateHeader]: challenge }
          : status === 429
            ? { ...responseHeaders, [retryAfterHeader]: `'${apiKeyRetryAfterSeconds}'` }
            : responseHeaders,
      templates: { 'application/json': errorBodyTemplate(status, JSON.stringify(message)) },
    });
  }
  for (const { type, status } of fallbackErrors) {
    api.addGatewayResponse(type.responseType, {
      type,
      responseHeaders,
      templates: { 'application/json': errorBodyTemplate(status, '$context.error.messageString') },
    });
  }
}
