import type { SignInRepository } from '../../app/ports';
import { deleteIf } from '../conditional-writes';
import { countIf, countPacedEvent, countRateEvent, refundPacedEvent } from '../rate-counters';
import { deleteItem, getItem, putItem, type TableClient } from '../table-client';
import { readClient } from './client-items';
import { toCodeItem } from './grant-items';
import {
  oauthCodeKey,
  oauthRateKey,
  oauthRequestKey,
  oauthSessionKey,
  oauthSignInCodeKey,
} from './oauth-keys';
import {
  toRequest,
  toRequestItem,
  toSession,
  toSessionItem,
  toSignInCode,
  toSignInCodeItem,
} from './sign-in-items';

/**
 * Signing in (docs/oauth.md, docs/data-model.md): the sign-in function's repository. Every item
 * carries the TTL `expiresAt` (epoch seconds); DynamoDB deletes expired items within days, so
 * readers check expiry themselves (dynalite never deletes them).
 */
export function createSignInRepository(table: TableClient): SignInRepository {
  return {
    getClient: (clientId) => readClient(table, clientId),

    putRequest: (request) => putItem(table, oauthRequestKey(request.requestId), toRequestItem(request)),

    async getRequest(requestId) {
      const item = await getItem(table, oauthRequestKey(requestId));
      return item ? toRequest(item) : null;
    },

    takeRequest: (requestId) =>
      deleteIf(table, { key: oauthRequestKey(requestId), condition: 'attribute_exists(PK)' }),

    putSession: (session) => putItem(table, oauthSessionKey(session.sessionHash), toSessionItem(session)),

    async getSession(sessionHash) {
      const item = await getItem(table, oauthSessionKey(sessionHash));
      return item ? toSession(sessionHash, item) : null;
    },

    deleteSession: (sessionHash) => deleteItem(table, oauthSessionKey(sessionHash)),

    putSignInCode: (code) => putItem(table, oauthSignInCodeKey(code.requestId), toSignInCodeItem(code)),

    async getSignInCode(requestId) {
      const item = await getItem(table, oauthSignInCodeKey(requestId));
      return item ? toSignInCode(requestId, item) : null;
    },

    countSignInAttempt: (requestId, maxAttempts) =>
      countIf(table, oauthSignInCodeKey(requestId), 'attempts', maxAttempts, { mustExist: true }),

    deleteSignInCode: (requestId) => deleteItem(table, oauthSignInCodeKey(requestId)),

    countRateEvent: (bucket, limit, expiresAt) => countRateEvent(table, bucket, limit, expiresAt),
    countPacedEvent: (bucket, pacing) => countPacedEvent(table, oauthRateKey(bucket), pacing),
    refundPacedEvent: (bucket) => refundPacedEvent(table, oauthRateKey(bucket)),

    putCode: (code) => putItem(table, oauthCodeKey(code.codeHash), toCodeItem(code)),
  };
}
