import * as z from 'zod/mini';
import { named } from './schema-registry';

/**
 * Dynamic client registration (RFC 7591): what a client sends and what it is answered. A module
 * of its own, so that only the registration function bundles these schemas.
 */

/** RFC 7591 §2: the metadata a client registers (public clients only); other fields are ignored. */
export const clientRegistrationRequest = /* @__PURE__ */ named('ClientRegistrationRequest', () =>
  z.object({
    redirect_uris: z.array(z.string().check(z.maxLength(2048))).check(z.minLength(1), z.maxLength(10)),
    client_name: z.optional(z.string().check(z.maxLength(100))),
    token_endpoint_auth_method: z.optional(z.string()),
    grant_types: z.optional(z.array(z.string()).check(z.maxLength(5))),
    response_types: z.optional(z.array(z.string()).check(z.maxLength(5))),
  }),
);

/** RFC 7591 §3.2.1 */
export const clientRegistrationResponse = /* @__PURE__ */ named('ClientRegistrationResponse', () =>
  z.object({
    client_id: z.string(),
    client_id_issued_at: z.int(),
    client_name: z.string(),
    redirect_uris: z.array(z.string()),
    grant_types: z.array(z.string()),
    response_types: z.array(z.string()),
    token_endpoint_auth_method: z.literal('none'),
  }),
);
