import { jsonWebKeySet } from '../oauth';
import type { OperationList } from '../operation-contract';

/** The public keys that verify access tokens (#4), served by a function of its own. */
export const jwksOperations = {
  getJwks: {
    method: 'GET',
    path: '/.well-known/jwks.json',
    group: 'jwks',
    summary: 'The public keys that verify issued access tokens (RFC 7517)',
    tag: 'OAuth',
    public: true,
    responses: { 200: jsonWebKeySet },
  },
} satisfies OperationList;
