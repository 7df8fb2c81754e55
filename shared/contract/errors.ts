import * as z from 'zod/mini';
import { described, named } from './schema-registry';

/** The error body every endpoint answers failures with (docs/http.md). */
export const errorBody = /* @__PURE__ */ named('Error', () =>
  z.object({
    code: described(z.int().check(z.gte(400), z.lte(599)), 'the HTTP status'),
    status: described(z.string(), 'the HTTP reason phrase, e.g. `Unprocessable Entity`'),
    message: z.string(),
    errors: described(
      z.record(z.string(), z.array(z.string())),
      'messages per field; a field path joins names and list positions with dots, e.g. `users.0.email`',
    ),
    reason: z.optional(
      described(
        z.enum(['plan_sibling_applied', 'plan_outdated', 'max_upfront_cost_exceeded']),
        'on a 409 that has one, a stable code saying why (docs/http.md, Reasons)',
      ),
    ),
    successor_plan_id: z.optional(
      described(z.string(), 'with `plan_outdated`: the plan computed since, to apply instead'),
    ),
  }),
);
export type ErrorBody = z.infer<typeof errorBody>;

/** RFC 6749 §5.2 error codes of the token endpoint. */
export const tokenErrorCodes = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'invalid_target',
  'unsupported_token_type',
] as const;
export type TokenErrorCode = (typeof tokenErrorCodes)[number];

/** The token endpoint's error body: the common fields plus RFC 6749's `error` and `error_description`. */
export const tokenErrorBody = /* @__PURE__ */ named('TokenError', () =>
  z.extend(errorBody._zod.innerType, { error: z.enum(tokenErrorCodes), error_description: z.string() }),
);
export type TokenErrorBody = z.infer<typeof tokenErrorBody>;

/** The registration endpoint's error body (RFC 7591 §3.2.2). */
export const registrationErrorBody = /* @__PURE__ */ named('ClientRegistrationError', () =>
  z.extend(errorBody._zod.innerType, {
    error: z.enum(['invalid_request', 'invalid_redirect_uri', 'invalid_client_metadata']),
    error_description: z.string(),
  }),
);
